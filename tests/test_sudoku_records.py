"""Game records end to end: `sudoku-lab arena --record` writes them, `sudoku-lab replay`
plays them through the rules to the same final position and score the arena reported, and
points at the first illegal step of a corrupted one (protocol/records.md)."""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAME = re.compile(r"game (\d+) (\S+) \(player ([12])\) vs (\S+): (\d+)-(\d+) (win|loss|draw)")
REPLAYED = re.compile(r"game (\d+) moves (\d+) scores (\d+) (\d+) (winner [12]|winner draw|unfinished)$")


def run(binary, *args):
    return subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


def replayed(out):
    """{game: (moves, scores, result, position line)} from replay's output."""
    lines = out.splitlines()
    games = {}
    for head, position in zip(lines[::2], lines[1::2]):
        m = REPLAYED.match(head)
        assert m and position.startswith("position "), out
        games[int(m.group(1))] = (int(m.group(2)), (int(m.group(3)), int(m.group(4))), m.group(5), position)
    return games


def finals(text):
    """{game: the record's own final position line}."""
    out, game = {}, None
    for line in text.splitlines():
        if line.startswith("game "):
            game = int(line.split()[1])
        elif line.startswith("final "):
            out[game] = line[len("final "):]
    return out


def test_arena_records_replay_to_the_reported_end(sudoku_lab_bin, tmp_path):
    rec = tmp_path / "games.txt"
    arena = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "greedy", "--board", "2x3", "--mode", "rows",
                "--givens", "4-8", "--games", "4", "--nodes", "3000", "--threads", "1", "--record", str(rec))
    assert arena.returncode == 0, arena.stderr
    text = rec.read_text()
    assert text.splitlines()[0] == "competitive-sudoku-record 1"
    check = run(sudoku_lab_bin, "replay", str(rec))
    assert check.returncode == 0, check.stderr
    games = replayed(check.stdout)
    reported = [GAME.match(l) for l in arena.stdout.splitlines() if l.startswith("game ")]
    assert len(reported) == 4 and sorted(games) == [1, 2, 3, 4]
    for m in reported:
        number, first_is = int(m.group(1)), int(m.group(3))
        mine, theirs = int(m.group(5)), int(m.group(6))
        scores = (mine, theirs) if first_is == 1 else (theirs, mine)
        moves, replay_scores, result, position = games[number]
        assert replay_scores == scores, (m.group(0), check.stdout)
        if m.group(7) == "draw":
            assert result == "winner draw"
        else:
            first_won = m.group(7) == "win"
            assert result == f"winner {first_is if first_won else 3 - first_is}"
        # Who moved is on every move line, and the position the rules reach is the arena's.
        assert position == finals(text)[number]
    assert re.search(r"^move 1 [12] \d+,\d+=\d+( taboo)?$", text, re.M)
    assert "player1 default" in text and "player2 greedy" in text and "time1 nodes 3000" in text


def test_a_corrupted_record_names_its_first_illegal_step(sudoku_lab_bin, tmp_path):
    rec = tmp_path / "games.txt"
    arena = run(sudoku_lab_bin, "arena", "--first", "greedy", "--second", "random", "--board", "2x2", "--games", "1",
                "--record", str(rec))
    assert arena.returncode == 0, arena.stderr
    lines = rec.read_text().splitlines()
    moves = [i for i, l in enumerate(lines) if l.startswith("move ")]
    # Move 3 goes onto move 1's cell: occupied.
    first = lines[moves[0]].split()
    third = lines[moves[2]].split()
    lines[moves[2]] = f"move 3 {third[2]} {first[3].split('=')[0]}=1"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    check = run(sudoku_lab_bin, "replay", str(bad))
    assert check.returncode == 1 and check.stdout == ""
    assert check.stderr.count("\n") == 1, check.stderr
    assert f"line {moves[2] + 1}: game 1 move 3: " in check.stderr and "illegal move" in check.stderr

    # A step the record calls taboo that the rules place (or the reverse) is found too.
    lines = rec.read_text().splitlines()
    lines[moves[0]] = lines[moves[0]] + " taboo" if not lines[moves[0]].endswith("taboo") else lines[moves[0]][:-6]
    bad.write_text("\n".join(lines) + "\n")
    check = run(sudoku_lab_bin, "replay", str(bad))
    assert check.returncode == 1 and "game 1 move 1: " in check.stderr

    # Not a record at all.
    bad.write_text("hello\n")
    check = run(sudoku_lab_bin, "replay", str(bad))
    assert check.returncode == 1 and "competitive-sudoku-record 1" in check.stderr
    check = run(sudoku_lab_bin, "replay", str(tmp_path / "missing.txt"))
    assert check.returncode == 2 and "cannot read" in check.stderr


def test_replay_positions_gives_the_position_before_every_step(sudoku_lab_bin, sudoku_bin, tmp_path):
    rec = tmp_path / "games.txt"
    arena = run(sudoku_lab_bin, "arena", "--first", "default", "--second", "greedy", "--board", "2x2", "--mode", "random",
                "--games", "2", "--nodes", "300", "--threads", "1", "--record", str(rec))
    assert arena.returncode == 0, arena.stderr
    text = rec.read_text()
    plain = run(sudoku_lab_bin, "replay", str(rec)).stdout.splitlines()
    out = run(sudoku_lab_bin, "replay", "--positions", str(rec))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # Without the `before` lines the output is the plain replay's.
    assert [l for l in lines if not l.startswith("before ")] == plain
    moves = [line.split() for line in text.splitlines() if line.startswith("move ")]
    before = [line.split(" ", 2) for line in lines if line.startswith("before ")]
    assert len(before) == len(moves)
    # Each game's steps are numbered from 1; each position is one the agent sets up, and in it
    # the recorded player is the one to move.
    assert [int(b[1]) for b in before] == [int(m[1]) for m in moves]
    for (_, _, position), move in zip(before, moves):
        assert position.startswith("position 2x2 ")
        show = subprocess.run([str(sudoku_bin)], input=f"{position}\nshow\nquit\n", capture_output=True, text=True,
                              timeout=30)
        assert "error" not in show.stdout, (position, show.stdout)
        assert re.search(rf"\bturn {move[2]}\b", show.stdout), (position, move, show.stdout)
