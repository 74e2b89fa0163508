"""Opening suites end to end: `sudoku-lab openings` writes a suite, `sudoku-lab arena --openings`
plays each opening twice with the sides swapped, says how many distinct games it played, and
refuses a bad opening file with one line naming what is wrong (exit 2)."""
import json
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
DISTINCT = re.compile(r"^distinct games: (\d+) of (\d+) ")
GAME = re.compile(r"^game (\d+) (\S+) \(player ([12])\) vs")


def run(binary, *args):
    return subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def suite(binary, tmp_path, mode="rows", count=3, name="suite.txt"):
    made = run(binary, "openings", "--board", "2x2", "--mode", mode, "--count", str(count), "--plies", "3",
               "--seed", "5")
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    assert lines[0].startswith("# sudoku-lab openings --board 2x2"), lines[0]
    positions = [l for l in lines if l.startswith("position ")]
    assert len(positions) == count and len(set(positions)) == count
    path = tmp_path / name
    path.write_text(made.stdout)
    return path, positions


def test_each_opening_is_played_twice_with_sides_swapped(sudoku_lab_bin, tmp_path):
    path, positions = suite(sudoku_lab_bin, tmp_path)
    jsonl = tmp_path / "games.jsonl"
    arena = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "greedy", "--openings", str(path),
                "--nodes", "500", "--threads", "1", "--jsonl", str(jsonl))
    assert arena.returncode == 0, arena.stderr
    assert arena.stdout.splitlines()[0].startswith(f"arena games 6 seed 1 openings {path} (3) mode rows"), arena.stdout
    games = [json.loads(l) for l in jsonl.read_text().splitlines()]
    assert [g["game"] for g in games] == [1, 2, 3, 4, 5, 6]
    assert [g["opening"] for g in games] == [1, 1, 2, 2, 3, 3]
    sides = {int(m.group(1)): int(m.group(3)) for m in map(GAME.match, arena.stdout.splitlines()) if m}
    assert sides == {1: 1, 2: 2, 3: 1, 4: 2, 5: 1, 6: 2}
    for g in games:
        opening = positions[g["opening"] - 1]
        # The game starts from its opening's board (the rows of the position line).
        assert opening.split()[2] == g["start"], (opening, g["start"])
        assert g["mode"] == "rows"
    # The count of distinct games is the count of different (start, moves) among the games.
    seen, repeats = {}, 0
    for g in games:
        key = (g["start"], g["history"])
        if key in seen:
            repeats += 1
            assert g["repeat_of"] == seen[key]
        else:
            seen[key] = g["game"]
            assert g["repeat_of"] is None
    m = next(DISTINCT.match(l) for l in arena.stdout.splitlines() if DISTINCT.match(l))
    assert (int(m.group(1)), int(m.group(2))) == (6 - repeats, 6)
    # The referee's decisions are reported too; a 4x4 board never needs more than its budget.
    assert re.search(r"^referee: longest taboo decision [\d.]+ ms \(game \d move \d+\); moves past its budget: "
                     r"0 decided within 16 times the budget, 0 only by an unbounded solve$", arena.stdout, re.M), arena.stdout


def test_games_that_repeat_each_other_count_once(sudoku_lab_bin, tmp_path):
    """One empty cell left: every game from this opening is the same one move, whoever plays
    it, so four games (the opening written twice) are one distinct game."""
    last = "position 2x2 1+2-3+4-/3-4+1-2+/2+1-4+3-/4-3+2-.\n"
    path = tmp_path / "last.txt"
    path.write_text(last + last)
    jsonl = tmp_path / "games.jsonl"
    arena = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "random", "--openings", str(path),
                "--threads", "1", "--jsonl", str(jsonl))
    assert arena.returncode == 0, arena.stderr
    games = [json.loads(l) for l in jsonl.read_text().splitlines()]
    assert [g["opening"] for g in games] == [1, 1, 2, 2]
    assert {g["history"] for g in games} == {"3,3=1"}
    assert [g["repeat_of"] for g in games] == [None, 1, 1, 1]
    assert any(l.startswith("distinct games: 1 of 4 ") for l in arena.stdout.splitlines()), arena.stdout
    # With --opening only that opening's pair is played.
    one = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "random", "--openings", str(path),
              "--opening", "2", "--threads", "1", "--jsonl", str(jsonl))
    assert one.returncode == 0, one.stderr
    assert [json.loads(l)["opening"] for l in jsonl.read_text().splitlines()] == [2, 2]


def test_records_are_openings_too(sudoku_lab_bin, tmp_path):
    """An unfinished game of a record file is the position after its last step."""
    path, positions = suite(sudoku_lab_bin, tmp_path, count=1)
    rec = tmp_path / "games.txt"
    played = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "greedy", "--openings", str(path),
                 "--threads", "1", "--record", str(rec))
    assert played.returncode == 0, played.stderr
    # Cut the first game after its first two moves: an unfinished game.
    lines = rec.read_text().splitlines()
    head = lines[:lines.index("game 2")]
    moves = [i for i, l in enumerate(head) if l.startswith("move ")]
    cut = head[:moves[2]] + ["end"]
    cut_path = tmp_path / "cut.txt"
    cut_path.write_text("\n".join(cut) + "\n")
    replay = run(sudoku_lab_bin, "replay", str(cut_path))
    assert replay.returncode == 0, replay.stderr
    after = replay.stdout.splitlines()[1]
    jsonl = tmp_path / "games.jsonl"
    arena = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "greedy", "--openings", str(cut_path),
                "--threads", "1", "--jsonl", str(jsonl))
    assert arena.returncode == 0, arena.stderr
    games = [json.loads(l) for l in jsonl.read_text().splitlines()]
    assert len(games) == 2 and all(g["start"] == after.split()[2] for g in games)
    # A finished game is no opening.
    whole = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "greedy", "--openings", str(rec))
    assert whole.returncode == 2 and "game 1 of the record is finished" in whole.stderr, whole.stderr


def test_bad_opening_files_are_refused_with_the_line(sudoku_lab_bin, tmp_path):
    good = "position 2x2 ..../..../..../.... mode rows\n"
    cases = {
        "hello.txt": (good + "hello there\n", "line 2: expected a 'position' line"),
        "dup.txt": ("# a suite\n" + good + "position 2x2 11../..../..../....\n",
                    "line 3: position: value 1 appears twice in row 0"),
        "over.txt": ("position 2x2 1+2-3+4-/3-4+1-2+/2+1-4+3-/4-3+2-1+\n", "line 1: the game is over"),
        "empty.txt": ("# nothing\n\n", "no opening in the file"),
    }
    for name, (text, why) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        r = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "greedy", "--openings", str(path))
        assert r.returncode == 2, (name, r.stdout, r.stderr)
        assert why in r.stderr and len(r.stderr.strip().splitlines()) == 1, (name, r.stderr)
        assert r.stdout == "", name
    missing = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "greedy", "--openings",
                  str(tmp_path / "no-such-file.txt"))
    assert missing.returncode == 2 and "cannot read it" in missing.stderr
    path = tmp_path / "one.txt"
    path.write_text(good)
    out_of_range = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "greedy", "--openings", str(path),
                       "--opening", "2")
    assert out_of_range.returncode == 2 and "the suite has openings 1 to 1" in out_of_range.stderr
    both = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "greedy", "--openings", str(path),
               "--board", "3x3")
    assert both.returncode == 2 and "--board" in both.stderr


def test_the_generator_refuses_what_it_cannot_make(sudoku_lab_bin):
    full = run(sudoku_lab_bin, "openings", "--board", "2x2", "--plies", "16")
    assert full.returncode == 2 and "nothing left to play" in full.stderr, full.stderr
    mode = run(sudoku_lab_bin, "openings", "--mode", "chess")
    assert mode.returncode == 2 and "--mode 'chess'" in mode.stderr


SUITES = ROOT / "crates" / "sudoku-lab" / "data" / "openings"


def test_every_shipped_suite_is_played_by_the_arena(sudoku_lab_bin):
    """Each shipped suite names its board and mode in its file name and in the command on its
    first line, holds only openings of that board and mode, and the arena plays its first
    opening (two quick games)."""
    files = sorted(SUITES.glob("*.txt"))
    assert len(files) >= 16, files
    for path in files:
        board, mode = path.stem.split("-")
        lines = path.read_text().splitlines()
        assert lines[0].startswith(f"# sudoku-lab openings --board {board} --mode {mode} "), path
        positions = [l for l in lines[1:] if l.strip()]
        assert positions and all(l.startswith(f"position {board} ") for l in positions), path
        assert all(f" mode {mode} " in l for l in positions), path
        proc = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "random", "--openings", str(path),
                   "--opening", "1", "--nodes", "1", "--threads", "1", "--quiet")
        assert proc.returncode == 0, (path, proc.stderr)
        assert re.search(r"^distinct games: \d+ of 2 ", proc.stdout, re.M), (path, proc.stdout)
