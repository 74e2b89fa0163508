#!/usr/bin/env python3
"""Ground truth for `exact` scores (convention C10, protocol/README.md): random 4x4 positions
(2x2 blocks, every mode, random legal moves played through the protocol's `play`) are searched
by the agent at random limits (`nodes` or `depth`) with 1 and 2 threads; every `info ... exact`
score must equal the exhaustive game value that `sudoku-lab solve-game` (found beside the engine) computes for the
same position. Positions the exhaustive solver cannot settle within its budget are skipped.

    python3 tests/exact_fuzz.py --searches 1000 --seed 1 target/release/sudoku-agent

With `--board MxN` (blocks of M rows and N columns, bigger than 2x2) the positions are endgames
with several sudoku solutions instead: a full grid with a rectangle of four cells emptied whose
two values can be swapped, and up to four more cells, random owners, mode, scores and turn.

    python3 tests/exact_fuzz.py --board 4x4 --searches 20 --seed 1 target/release/sudoku-agent

With `--records FILE` (game records of `sudoku-lab arena --record`) the positions are those
where the side named `default` moved with at most 12 empty cells (the exact endgame's), each
searched with `go nodes N` (`--nodes`, one thread); the tally also counts the positions with
several sudoku solutions and how many of them got an exact score.

    python3 tests/exact_fuzz.py --records games.txt --nodes 20000 target/release/sudoku-agent

Prints one line per disagreement and a closing tally; exits 1 when any exact score disagrees.
"""
from __future__ import annotations

import argparse
import pathlib
import random
import subprocess
import sys
from typing import Dict, Iterator, List, Optional, Tuple

MODES = ["classic", "rows", "border", "random"]
# The `sudoku-lab` that solves the positions (`--lab`); None: the one beside the engine.
LAB: Optional[str] = None
EMPTY = "position 2x2 ..../..../..../...."


def talk(agent: List[str], lines: List[str], timeout: float = 120) -> List[str]:
    """Runs one agent process on `lines` (end of input ends it) and returns its output lines."""
    proc = subprocess.run(agent, input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=timeout)
    return proc.stdout.splitlines()


def random_position(agent: List[str], rng: random.Random) -> Optional[str]:
    """A `position` line reached by random legal moves from the empty board of a random mode."""
    mode = rng.choice(MODES)
    start = f"{EMPTY} mode {mode}"
    if mode == "random":
        cells = [f"{r},{c}" for r in range(4) for c in range(4)]
        rng.shuffle(cells)
        start += f" allowed1 {cells[0]} {cells[1]} allowed2 {cells[2]} {cells[3]}"
    moves = [f"play {r},{c}={v}" for r in range(4) for c in range(4) for v in range(1, 5)]
    rng.shuffle(moves)
    lines = [start] + moves[: rng.randrange(20, 64)] + ["show"]
    shown = list(shown_positions("2x2", talk(agent, lines)))
    return shown[0] if shown else None


def shown_positions(shape: str, out: List[str]) -> Iterator[str]:
    """The `position` line of each `show` in an agent's output (games over left out)."""
    block: Dict[str, List[str]] = {}

    def position() -> Optional[str]:
        rows, state = block.get("rows"), block.get("mode")
        if rows is None or state is None or "result" in state:
            return None
        # mode M scores A B turn T taboo <moves|none>
        pos = f"position {shape} {rows[1]} mode {state[1]} turn {state[6]} scores {state[3]} {state[4]}"
        taboo = state[state.index("taboo") + 1:]
        if taboo != ["none"]:
            pos += " taboo " + " ".join(taboo)
        for key in ("allowed1", "allowed2"):
            if key in block and block[key][1:] != ["none"]:
                pos += " " + " ".join(block[key])
        return pos

    for line in out + ["rows"]:
        words = line.split()
        if words and words[0] == "rows" and block:
            pos = position()
            if pos is not None:
                yield pos
            block = {}
        if words and words[0] in ("rows", "mode", "allowed1", "allowed2"):
            block[words[0]] = words


def record_positions(agent: List[str], path: str, most_empty: int = 12) -> Iterator[str]:
    """The positions of arena records (`protocol/records.md`) where the side named `default`
    is to move with at most `most_empty` empty cells."""
    game: Dict[str, str] = {}
    moves: List[List[str]] = []
    for line in pathlib.Path(path).read_text().splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "game":
            game, moves = {}, []
        elif words[0] == "move":
            moves.append(words[2:])
        elif words[0] == "end" and "default" in (game.get("player1"), game.get("player2")):
            side = "1" if game["player1"] == "default" else "2"
            start = (f"position {game['shape']} {game['start']} mode {game['mode']}"
                     f" turn {game['turn']} scores {game['scores']}")
            for key in ("allowed1", "allowed2"):
                if key in game:
                    start += f" {key} {game[key]}"
            empty = game["start"].count(".")
            lines = [start]
            for player, what, *taboo in moves:
                if what == "pass":
                    lines.append("play none")
                    continue
                if player == side and empty <= most_empty:
                    lines.append("show")
                lines.append(f"play {what}")
                empty -= 0 if taboo else 1
            yield from shown_positions(game["shape"], talk(agent, lines))
        elif len(words) > 1:
            game[words[0]] = " ".join(words[1:])


def run_records(agent: List[str], paths: List[str], nodes: int, out=sys.stdout) -> Tuple[int, int, List[str]]:
    """Checks the exact scores of `go nodes N` at the endgame positions of arena records;
    returns (searches run, exact reports checked, disagreements)."""
    done = checked = several = several_exact = 0
    bad: List[str] = []
    for path in paths:
        for position in record_positions(agent, path):
            words = solve_game(agent, position)
            if words is None:
                continue
            truth = exhaustive_value(agent, position)
            found = exact_scores(agent, position, 1, f"nodes {nodes}")
            done += 1
            checked += len(found)
            if int(words[words.index("solutions") + 1]) >= 2:
                several += 1
                several_exact += bool(found)
            for score, line in found:
                if score != truth:
                    bad.append(f"{position} | go nodes {nodes} | {line} | exhaustive {truth}")
                    print("disagree " + bad[-1], file=out, flush=True)
    print(f"searches {done} exact-reports {checked} several-solutions {several}"
          f" with-exact {several_exact} disagreements {len(bad)}", file=out, flush=True)
    return done, checked, bad


def full_grid(m: int, n: int, rng: random.Random) -> List[List[int]]:
    """A random full grid of m x n blocks: the classic pattern with rows shuffled within bands,
    bands, columns within stacks, stacks and values, then a few cycles of two rows of one band
    and of two columns of one stack swapped (each row, column and block keeps its values): the
    pattern alone has no rectangle to swap on odd block sides."""
    size = m * n
    rows = [b * m + r for b in rng.sample(range(n), n) for r in rng.sample(range(m), m)]
    cols = [s * n + c for s in rng.sample(range(m), m) for c in rng.sample(range(n), n)]
    values = rng.sample(range(1, size + 1), size)
    grid = [[values[((r % m) * n + r // m + c) % size] for c in cols] for r in rows]
    for _ in range(rng.randrange(16)):
        # Rows of the grid, then of the transposed grid (columns, whose bands are stacks).
        for lines, group in ((m, n), (n, m)):
            band = rng.randrange(group) * lines
            a, b = (band + r for r in rng.sample(range(lines), 2))
            cycle = [rng.randrange(size)]
            while (nxt := grid[a].index(grid[b][cycle[-1]])) != cycle[0]:
                cycle.append(nxt)
            for c in cycle:
                grid[a][c], grid[b][c] = grid[b][c], grid[a][c]
            grid = [list(col) for col in zip(*grid)]
    return grid


def rectangles(grid: List[List[int]], m: int, n: int) -> List[List[Tuple[int, int]]]:
    """Four cells of two rows of one band (or two columns of one stack) whose two values can be
    swapped: emptied, they double the solutions."""
    size = m * n
    found = []
    for r1 in range(size):
        for r2 in range(r1 + 1, size):
            for c1 in range(size):
                for c2 in range(c1 + 1, size):
                    if grid[r1][c1] == grid[r2][c2] and grid[r1][c2] == grid[r2][c1] \
                            and (r1 // m == r2 // m or c1 // n == c2 // n):
                        found.append([(r1, c1), (r1, c2), (r2, c1), (r2, c2)])
    return found


def value_char(v: int) -> str:
    return str(v) if v <= 9 else chr(ord("A") + v - 10)


def big_position(m: int, n: int, rng: random.Random) -> str:
    """A `position` line: an endgame on m x n blocks with several sudoku solutions (see the
    module text)."""
    size = m * n
    grid = full_grid(m, n, rng)
    found = rectangles(grid, m, n)
    while not found:
        grid = full_grid(m, n, rng)
        found = rectangles(grid, m, n)
    empty = set(rng.choice(found))
    target = len(empty) + rng.randrange(5)
    while len(empty) < target:
        empty.add((rng.randrange(size), rng.randrange(size)))
    rows = []
    for r in range(size):
        row = ""
        for c in range(size):
            if (r, c) in empty:
                row += "."
            else:
                row += value_char(grid[r][c]) + rng.choice(["", "+", "-"])
        rows.append(row)
    mode = rng.choice(MODES)
    pos = (f"position {m}x{n} {'/'.join(rows)} mode {mode} turn {rng.choice([1, 2])}"
           f" scores {rng.randrange(100)} {rng.randrange(100)}")
    taboo = [f"{r},{c}={rng.randrange(1, size + 1)}" for r, c in rng.sample(sorted(empty), 2)]
    if rng.randrange(2):
        pos += " taboo " + " ".join(taboo[: rng.randrange(1, 3)])
    if mode == "random":
        cells = [f"{r},{c}" for r in range(size) for c in range(size)]
        rng.shuffle(cells)
        pos += f" allowed1 {' '.join(cells[:size])} allowed2 {' '.join(cells[size:2 * size])}"
    return pos


def solve_game(agent: List[str], position: str) -> Optional[List[str]]:
    """The words `sudoku-lab solve-game` prints for `position`, or None if unsettled."""
    words = position.split()[1:]
    # The game solver is the lab's, the program beside the engine (the same build).
    lab = LAB or str(pathlib.Path(agent[0]).with_name("sudoku-lab"))
    proc = subprocess.run([lab, "solve-game", "--max-nodes", "5000000"] + words,
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return None
    first = proc.stdout.split()
    return first if "final" in first else None


def exhaustive_value(agent: List[str], position: str) -> Optional[int]:
    """The final score difference from the side of the player to move under perfect play (the
    agent's `score`), or None if unsettled. `solve-game` prints it from player 1's side."""
    first = solve_game(agent, position)
    if first is None:
        return None
    final = int(first[first.index("final") + 1])
    return final if first[first.index("mover") + 1] == "1" else -final


def exact_scores(agent: List[str], position: str, threads: int, limit: str) -> List[Tuple[int, str]]:
    out = talk(agent, [f"setoption name Threads value {threads}", position, f"go {limit}"])
    found = []
    for line in out:
        if line.startswith("info ") and " exact" in line.split(" pv ")[0]:
            found.append((int(line.split(" score ")[1].split()[0]), line))
    return found


def run(agent: List[str], searches: int, seed: int, out=sys.stdout,
        board: str = "2x2") -> Tuple[int, int, List[str]]:
    """Runs `searches` searches; returns (searches run, exact reports checked, disagreements)."""
    rng = random.Random(seed)
    m, n = (int(x) for x in board.split("x"))
    done = checked = 0
    bad: List[str] = []
    while done < searches:
        position = random_position(agent, rng) if (m, n) == (2, 2) else big_position(m, n, rng)
        if position is None:
            continue
        truth = exhaustive_value(agent, position)
        if truth is None:
            continue
        for threads in (1, 2):
            limit = rng.choice([f"nodes {rng.randint(1, 200000)}", f"depth {rng.randint(1, 20)}"])
            for score, line in exact_scores(agent, position, threads, limit):
                checked += 1
                if score != truth:
                    bad.append(f"{position} | threads {threads} go {limit} | {line} | exhaustive {truth}")
                    print("disagree " + bad[-1], file=out, flush=True)
            done += 1
    print(f"searches {done} exact-reports {checked} disagreements {len(bad)}", file=out, flush=True)
    return done, checked, bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--searches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--board", default="2x2",
                        help="block shape MxN; bigger than 2x2: several-solution endgames")
    parser.add_argument("--records", action="append", default=[],
                        help="arena records: check default's endgame positions instead")
    parser.add_argument("--nodes", type=int, default=20000, help="with --records: go nodes N")
    parser.add_argument("--lab", help="the sudoku-lab that solves the positions (default: the "
                        "one beside the engine)")
    parser.add_argument("agent", nargs=argparse.REMAINDER, help="the sudoku-agent command line")
    args = parser.parse_args()
    agent = [a for a in args.agent if a != "--"]
    if not agent:
        parser.error("give the sudoku-agent command")
    global LAB
    LAB = args.lab
    if args.records:
        _, _, bad = run_records(agent, args.records, args.nodes)
        return 1 if bad else 0
    try:
        m, n = (int(x) for x in args.board.split("x"))
        if not (2 <= m <= 5 and 2 <= n <= 5):
            raise ValueError
    except ValueError:
        parser.error(f"--board {args.board}: expected MxN blocks from 2x2 to 5x5")
    _, _, bad = run(agent, args.searches, args.seed, board=args.board)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
