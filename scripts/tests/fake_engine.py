#!/usr/bin/env python3
"""Small stand-in engines for the driver and front-end tests (not the real rules).

    fake_engine.py blockudoku [--die-on-go N] [--error-on-position] [--silent] [--exit-code C]
                              [--hang-on-go] [--deaf-on-go] [--no-objective] [--use-movetime]
                              [--two-bestmoves | --error-then-bestmove | --bestmove-then-error]
    fake_engine.py sudoku
    fake_engine.py selfplay --games N --seed S --jsonl FILE ...   (records for batch_eval)

`blockudoku` speaks enough of `protocol blockudoku 1` for the driver and GUI tests: first-fit
`go`, `play` that places and clears full rows/columns/boxes, score = cells placed + 18 per
cleared region. The misbehaviours let the tests see a dead, erring or silent engine, and one
that answers its first `go` twice: with a second `bestmove 1@r9c9` after the first, with an
`error` followed by `bestmove 1@r9c9`, or with its bestmove followed by an `error`. It offers
the `Objective` option (survive, points) of the real engine unless `--no-objective`; a combo option
set to a value it does not list is an `error`.
`sudoku` answers `go` with a few `propose` lines (first empty cells) and a `bestmove`.
"""
import sys

PIECES = {}
SHAPES = {}


def load_pieces():
    import pathlib
    here = pathlib.Path(__file__).resolve()
    path = here.parents[2] / "crates" / "rules" / "data" / "blockudoku-pieces.txt"
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            t = line.split()
            SHAPES[t[0]] = t[-1]
            PIECES[t[0]] = [(r, c) for r, row in enumerate(t[-1].split("/")) for c, ch in enumerate(row) if ch == "#"]


def shape(p):
    if p in PIECES:
        return PIECES[p]
    cells = [(r, c) for r, row in enumerate(p.split("/")) for c, ch in enumerate(row) if ch == "#"]
    if not cells:
        raise ValueError(f"bad piece {p}")
    return cells


def fits(board, cells, r, c):
    return all(0 <= r + dr < 9 and 0 <= c + dc < 9 and board[(r + dr) * 9 + c + dc] == "." for dr, dc in cells)


def place(board, cells, r, c):
    b = list(board)
    for dr, dc in cells:
        b[(r + dr) * 9 + c + dc] = "#"
    regions = [[i * 9 + j for j in range(9)] for i in range(9)] + [[j * 9 + i for j in range(9)] for i in range(9)]
    regions += [[(br * 3 + i) * 9 + bc * 3 + j for i in range(3) for j in range(3)] for br in range(3) for bc in range(3)]
    full = [reg for reg in regions if all(b[k] == "#" for k in reg)]
    for reg in full:
        for k in reg:
            b[k] = "."
    return "".join(b), len(full)


COMBOS = {
    "Scoring": ("classic", "simple"),
    "Agent": ("default", "seed"),
    "Objective": ("survive", "points"),
}


def option_lines(objective):
    lines = ["option name Threads type spin default 1 min 1 max 64"]
    for name, values in COMBOS.items():
        if name != "Objective" or objective:
            lines.append(f"option name {name} type combo default {values[0]} " + " ".join(f"var {v}" for v in values))
    return "".join(line + "\n" for line in lines)


def blockudoku(args):
    load_pieces()
    objective = "--no-objective" not in args
    die_on_go = int(args[args.index("--die-on-go") + 1]) if "--die-on-go" in args else None
    exit_code = int(args[args.index("--exit-code") + 1]) if "--exit-code" in args else 3
    board, pieces, score, streak = "." * 81, [], 0, 0
    gos = 0
    out = sys.stdout
    for line in sys.stdin:
        t = line.split()
        if not t:
            continue
        cmd = t[0]
        if "--silent" in args:
            continue
        if cmd == "hello":
            out.write("id name fake\nid version 0\nprotocol blockudoku 1\n" + option_lines(objective) + "hello ok\n")
        elif cmd == "isready":
            out.write("readyok\n")
        elif cmd == "newgame":
            board, pieces, score, streak = "." * 81, [], 0, 0
        elif cmd == "setoption":
            known = ("Threads", "Scoring", "Agent") + (("Objective",) if objective else ())
            if len(t) < 5 or t[2] not in known:
                out.write("error unknown option\n")
            elif t[2] in COMBOS and t[4] not in COMBOS[t[2]]:
                out.write(f"error option {t[2]} has no value {t[4]}\n")
        elif cmd == "position":
            if "--error-on-position" in args:
                out.write("error position refused by the fake\n")
                out.flush()
                continue
            try:
                nb, np_, ns, nt = "." * 81, [], 0, 0
                i = 1
                while i < len(t):
                    if t[i] == "empty":
                        i += 1
                    elif t[i] == "board":
                        nb = t[i + 1].replace("/", "")
                        assert len(nb) == 81
                        i += 2
                    elif t[i] == "pieces":
                        i += 1
                        while i < len(t) and t[i] not in ("score", "streak"):
                            if t[i] != "-":  # a slot already played, as in `play` replies
                                shape(t[i])
                            np_.append(t[i])
                            i += 1
                    elif t[i] == "score":
                        ns = int(t[i + 1]); i += 2
                    elif t[i] == "streak":
                        nt = int(t[i + 1]); i += 2
                    else:
                        raise ValueError(t[i])
                assert 1 <= len(np_) <= 3 and any(p != "-" for p in np_)
                board, pieces, score, streak = nb, np_, ns, nt
            except (ValueError, AssertionError, IndexError, KeyError) as e:
                out.write(f"error bad position {e}\n")
        elif cmd == "go":
            gos += 1
            if die_on_go is not None and gos >= die_on_go:
                sys.stderr.write("fake engine: dying on purpose\n")
                sys.stderr.flush()
                sys.exit(exit_code)
            if "--hang-on-go" in args or "--deaf-on-go" in args:
                # Ignores the limit: answers only after `stop` (or never, when deaf).
                for line2 in sys.stdin:
                    if line2.strip() == "stop" and "--hang-on-go" in args:
                        break
                    if line2.strip() == "isready":
                        out.write("readyok\n")
                        out.flush()
            if len(t) > 1 and t[1] not in ("movetime", "nodes", "infinite"):
                out.write("error bad go\n")
                out.flush()
                continue
            if "--use-movetime" in args and "movetime" in t:
                # Thinks for the whole movetime (a real engine may answer sooner), or until `stop`.
                import select
                import time
                end = time.monotonic() + int(t[t.index("movetime") + 1]) / 1000
                while time.monotonic() < end:
                    ready, _, _ = select.select([sys.stdin], [], [], end - time.monotonic())
                    if ready:
                        got = sys.stdin.readline().strip()
                        if got in ("stop", ""):
                            break
                        if got == "isready":
                            out.write("readyok\n")
                            out.flush()
            if gos == 1 and "--error-then-bestmove" in args:
                out.write("error go refused by the fake\nbestmove 1@r9c9\n")
                out.flush()
                continue
            b, moves, ok = board, [], True
            for slot, p in enumerate(pieces, 1):
                if p == "-":
                    continue
                cells = shape(p)
                spot = next(((r, c) for r in range(9) for c in range(9) if fits(b, cells, r, c)), None)
                if spot is None:
                    ok = False
                    break
                b, _ = place(b, cells, *spot)
                moves.append(f"{slot}@r{spot[0] + 1}c{spot[1] + 1}")
            out.write("info nodes 1 time 0 pv " + " ".join(moves) + "\n")
            out.write(("bestmove " + " ".join(moves) if ok else "bestmove none") + "\n")
            if gos == 1 and "--two-bestmoves" in args:
                out.write("bestmove 1@r9c9\n")
            if gos == 1 and "--bestmove-then-error" in args:
                out.write("error a second answer from the fake\n")
        elif cmd == "play":
            b, s, st = board, score, streak
            used, err, cleared = [], None, 0
            for tok in t[1:]:
                try:
                    slot, rest = tok.split("@")
                    r, c = rest[1:].split("c")
                    slot, r, c = int(slot), int(r) - 1, int(c) - 1
                    if not 1 <= slot <= len(pieces) or pieces[slot - 1] == "-":
                        raise ValueError(slot)
                    cells = shape(pieces[slot - 1])
                except (ValueError, IndexError):
                    err = f"bad placement {tok}"
                    break
                if slot in used or not fits(b, cells, r, c):
                    err = f"illegal placement {tok}"
                    break
                used.append(slot)
                b, k = place(b, cells, r, c)
                cleared += k
                s += len(cells) + 18 * k
                st = st + 1 if k else 0
            if err or not used:
                out.write(f"error {err or 'nothing to play'}\n")
            else:
                board, score, streak = b, s, st
                # A played slot stays as `-`, so slot numbers stay those of the position.
                pieces = ["-" if i in used else p for i, p in enumerate(pieces, 1)]
                shown = " ".join(pieces) if any(p != "-" for p in pieces) else "none"
                rows = "/".join(board[i:i + 9] for i in range(0, 81, 9))
                out.write(f"position board {rows} pieces {shown} score {score} streak {streak} cleared {cleared}\n")
        elif cmd == "fits":
            words = ["-" if p == "-" else "1" if any(fits(board, shape(p), r, c) for r in range(9) for c in range(9)) else "0"
                     for p in pieces]
            out.write("fits " + (" ".join(words) if words else "none") + "\n")
        elif cmd == "catalogue":
            out.write("catalogue " + " ".join(f"{i}:{s}" for i, s in SHAPES.items()) + "\n")
        elif cmd == "quit":
            break
        else:
            out.write(f"error unknown command {cmd}\n")
        out.flush()


def sudoku(args):
    """`--junk LINE`: also print LINE after the first proposal and after the last one (an
    engine that misbehaves); `--error-on-position`: refuse every position (the empty 9x9
    board the engine starts on stays); `--hang-on-go`: after the proposals, answer nothing
    more and read no more."""
    out = sys.stdout
    junk = args[args.index("--junk") + 1] if "--junk" in args else None
    # Like the real agent, it starts on the empty 9x9 board.
    empty = [(r, c) for r in range(9) for c in range(9)]
    for line in sys.stdin:
        t = line.split()
        if not t:
            continue
        if t[0] == "hello":
            out.write("id name fake-sudoku\nid version 0\nprotocol competitive-sudoku 1\n"
                      "option name Threads type spin default 1 min 1 max 64\n"
                      "option name Agent type combo default default var default var greedy\nhello ok\n")
        elif t[0] == "isready":
            out.write("readyok\n")
        elif t[0] == "position" and "--error-on-position" in args:
            out.write("error position refused by the fake\n")
        elif t[0] == "position":
            rows = t[2].split("/")
            empty = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row.replace("+", "").replace("-", "")) if ch == "."]
        elif t[0] == "go":
            for k, (r, c) in enumerate(empty[:3]):
                out.write(f"propose {r},{c}=1\n")
                if junk and k == 0:
                    out.write(junk + "\n")
                out.flush()
            if junk:
                out.write(junk + "\n")
                out.flush()
            if "--hang-on-go" in args:
                import time
                time.sleep(60)
            if "infinite" in t:
                # Like the real agent under `go infinite`: wait for stop (or the end of input).
                for line2 in sys.stdin:
                    if line2.strip() == "stop":
                        break
                    if line2.strip() == "isready":
                        out.write("readyok\n")
                        out.flush()
            out.write(f"bestmove {empty[0][0]},{empty[0][1]}=1\n" if empty else "bestmove none\n")
        elif t[0] == "quit":
            break
        elif t[0] != "stop":
            out.write(f"error unknown command {t[0]}\n")
        out.flush()


def selfplay(args):
    """Writes made-up but seed-determined game records in the shape batch_eval reads."""
    import json
    import random

    games = int(args[args.index("--games") + 1])
    seed = int(args[args.index("--seed") + 1])
    cap = int(args[args.index("--max-rounds") + 1]) if "--max-rounds" in args else 1000
    rng = random.Random(seed)
    with open(args[args.index("--jsonl") + 1], "w") as f:
        for g in range(games):
            rounds = min(cap, int(rng.expovariate(1 / 300)) + 1)
            f.write(json.dumps({"game": g + 1, "rounds": rounds, "died": rounds < cap, "score": rounds * 20}) + "\n")
    print(f"selfplay: {games} games")


if __name__ == "__main__":
    {"blockudoku": blockudoku, "sudoku": sudoku, "selfplay": selfplay}[sys.argv[1]](sys.argv[2:])
