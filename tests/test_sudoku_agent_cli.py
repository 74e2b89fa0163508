"""End-to-end tests of the Competitive Sudoku one-shot programs: `sudoku-lab arena` (built-in and external
`cmd:` agents, board files, JSON lines) and `sudoku-agent bench`."""
import json
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(binary, *args, timeout=60):
    proc = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def summary(out):
    m = re.search(r"wins (\d+) draws (\d+) losses (\d+) score ([\d.]+)% \(95% CI ([\d.]+)%\.\.([\d.]+)%\)", out)
    assert m, out
    return [int(m.group(i)) for i in (1, 2, 3)], float(m.group(4))


def test_arena_builtin_with_jsonl(sudoku_lab_bin, tmp_path):
    jsonl = tmp_path / "games.jsonl"
    out = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "random", "--board", "2x2",
              "--games", "4", "--movetime", "10", "--jsonl", str(jsonl))
    (w, d, l), score = summary(out)
    assert w + d + l == 4
    assert "forfeits default: 0 (illegal 0, taboo-listed 0, no move 0)" in out
    games = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [g["game"] for g in games] == [1, 2, 3, 4]
    # Sides swap every game.
    assert [g["first_player"] for g in games] == [1, 2, 1, 2]
    assert all(g["forfeit"] is None or g["forfeit"]["by"] == "second" for g in games)


def test_arena_stopped_early_keeps_its_finished_games(sudoku_lab_bin, tmp_path):
    """A match killed before its last game keeps every game it finished, in order, in its
    --jsonl and --record files (each game is written once the games before it have finished)."""
    jsonl, record = tmp_path / "games.jsonl", tmp_path / "games.txt"
    proc = subprocess.Popen([str(sudoku_lab_bin), "arena", "--first", "default", "--second", "greedy", "--board", "2x2",
                             "--games", "10000", "--movetime", "5", "--threads", "1", "--jsonl", str(jsonl),
                             "--record", str(record)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        lines = [proc.stdout.readline() for _ in range(4)]  # the header and three games
    finally:
        proc.kill()
        proc.wait()
    assert all(line.startswith("game ") for line in lines[1:]), lines
    games = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(games) >= 2 and [g["game"] for g in games] == list(range(1, len(games) + 1))
    numbers = [int(line.split()[1]) for line in record.read_text().splitlines() if line.startswith("game ")]
    assert numbers[:2] == [1, 2] and numbers == sorted(numbers)


def test_arena_external_agents_meet(sudoku_lab_bin, sudoku_bin):
    """Two copies of the binary play through the protocol; the referee accepts every move."""
    external_match(sudoku_lab_bin, sudoku_bin, "greedy", "2x3", "--movetime", "20")


def external_match(sudoku_lab_bin, sudoku_bin, opponent, board, *limit):
    """Two games of the binary behind `cmd:` against a built-in agent: both finish, no forfeit."""
    out = run(sudoku_lab_bin, "arena", "--first", f"cmd:{sudoku_bin}", "--second", opponent, "--board", board,
              "--games", "2", *limit, "--threads", "1")
    (w, d, l), _ = summary(out)
    assert w + d + l == 2
    assert re.search(r"forfeits cmd:\S+: 0 ", out), out


def test_arena_board_files_and_modes(sudoku_lab_bin):
    out = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "greedy", "--board",
              "tests/data/sudoku-3x3-2024-rows.txt", "--games", "2", "--movetime", "10")
    assert "rows mode" in out
    out = run(sudoku_lab_bin, "arena", "--first", "seed", "--second", "default@5", "--board",
              "tests/data/sudoku-2x2-2022.txt", "--mode", "random", "--games", "2", "--movetime", "10")
    assert "random mode" in out
    out = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "greedy", "--board", "2x3",
              "--givens", "5-10", "--mode", "border", "--games", "2", "--movetime", "10")
    assert "+5-10 givens border mode" in out


def test_arena_with_a_node_limit_replays_exactly(sudoku_lab_bin, sudoku_bin, tmp_path):
    """`--nodes` replaces the clock: the same command plays the same games (moves and scores),
    whatever the machine's load, for searching agents and for one behind `cmd:`."""
    def match(tag):
        jsonl = tmp_path / f"{tag}.jsonl"
        out = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "mcts", "--board", "2x3",
                  "--mode", "rows", "--games", "4", "--nodes", "2000", "--threads", "2",
                  "--jsonl", str(jsonl))
        assert "2000 nodes per move" in out
        games = [json.loads(line) for line in jsonl.read_text().splitlines()]
        assert all(g["nodes"] == 2000 for g in games)
        # Games finish in any order with two at a time: compare the set of lines.
        # The answer times (the `times` lines) are the clock's; everything else replays.
        lines = re.sub(r", [\d.]+ s\n", "\n", out)
        # The referee's longest decision is a time too (and so is which move took longest).
        lines = re.sub(r"longest taboo decision [\d.]+ ms \(game \d+ move \d+\)", "longest taboo decision", lines)
        lines = lines.splitlines()
        return [(g["scores"], g["history"]) for g in games], sorted(l for l in lines if not l.startswith("times "))

    assert match("a") == match("b")
    external_match(sudoku_lab_bin, sudoku_bin, "original", "2x2", "--nodes", "500")


def test_arena_gives_each_side_its_own_limit(sudoku_lab_bin, tmp_path):
    """`--first-movetime`/`--second-movetime` (and `--second-nodes`) set one side's limit: the
    header line (the first) names both limits and the seed, the JSON lines carry them, and the
    side with 20 ms answers within its time while the other may think up to 300 ms."""
    jsonl = tmp_path / "games.jsonl"
    out = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "default", "--board", "2x2",
              "--mode", "rows", "--games", "2", "--first-movetime", "20", "--second-movetime", "300",
              "--threads", "1", "--jsonl", str(jsonl))
    lines = out.splitlines()
    assert lines[0] == ("arena games 2 seed 1 board 2x2 mode rows first default movetime 20 "
                        "second default movetime 300 threads 1"), lines[0]
    assert re.match(r"game 1 ", lines[1]), lines[1]
    assert "movetime 20 ms vs movetime 300 ms" in out
    games = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [(g["first_limit"], g["second_limit"]) for g in games] == [("movetime 20", "movetime 300")] * 2
    times = re.findall(r"^times default: (\d+) moves, go to first legal move max ([\d.]+) ms .*"
                       r"go to bestmove max ([\d.]+) ms .*; no legal move by the movetime (\d+), "
                       r"bestmove over movetime\+10 ms \d+, no bestmove (\d+)$", out, re.M)
    assert len(times) == 2, out
    (moves1, _, best1, missed1, silent1), (moves2, _, best2, missed2, silent2) = times
    assert int(moves1) > 0 and int(moves2) > 0
    assert (missed1, silent1, missed2, silent2) == ("0", "0", "0", "0"), out
    # Loose bounds for a loaded machine: the 20 ms side never takes the other side's time.
    assert float(best1) < 250, out
    assert float(best2) > float(best1), out
    out = run(sudoku_lab_bin, "arena", "--first", "default@15", "--second", "greedy", "--board", "2x2",
              "--games", "2", "--nodes", "300", "--second-nodes", "7", "--threads", "1")
    assert out.splitlines()[0].endswith("first default@15 movetime 15 second greedy nodes 7 threads 1"), out


def test_bench_is_deterministic(sudoku_bin):
    a = run(sudoku_bin, "bench", "--nodes", "20000")
    b = run(sudoku_bin, "bench", "--nodes", "20000")
    total = lambda out: re.search(r"bench: (\d+) nodes", out).group(1)
    assert total(a) == total(b)
    assert len(re.findall(r"^position \d+: bestmove \d+,\d+=\d+", a, re.M)) == 6


def test_the_engine_carries_no_measuring_tool_but_bench(sudoku_bin, sudoku_lab_bin, sudoku_solver_bin):
    """The engine lists `bench` alone; the lab and the puzzle command line list the tools."""
    def commands(binary):
        text = run(binary, "--help")
        block = text.split("Commands:")[1].split("Options:")[0]
        return {line.split()[0] for line in block.splitlines() if line.strip()} - {"help"}

    assert commands(sudoku_bin) == {"bench"}
    assert commands(sudoku_lab_bin) == {"arena", "openings", "replay", "solve-game", "check-exact", "check-play"}
    assert commands(sudoku_solver_bin) == {"solve", "count", "check", "generate", "bench-solver"}
