"""Board files in both formats of the course framework, read by the real `sudoku-agent`.

The files are the project's own (tests/data/README.md says how each was made). The 2022/23
files are generated puzzles in the layout of the framework's `boards/` folder (values of 10
and more as decimal numbers). The 2024/25 file is a random-mode game on the same 3x4 puzzle,
written the way the framework's `print_game_state` writes it: in the allowed-squares modes
every filled cell that is not player 1's gets a `-`, givens included, and the
`occupied-squares1/2` lines say who filled what.
"""
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def session(binary, *lines):
    proc = subprocess.run([str(binary)], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def shown(binary, path):
    out = session(binary, f"position file {path}", "show")
    assert not any(l.startswith("error") for l in out), out
    return {l.split()[0]: l.split(None, 1)[1] for l in out if l.split()[0] in
            ("rows", "mode", "allowed1", "allowed2", "playable1", "playable2")}


def test_2022_3x3(sudoku_bin):
    s = shown(sudoku_bin, DATA / "framework-2022-3x3.txt")
    assert s["rows"].split("/")[0] == ".1......."
    assert s["rows"].split("/")[8] == "19.5.2..7"
    assert s["mode"] == "classic scores 0 0 turn 1 taboo none"
    assert "allowed1" not in s


def test_2022_3x4_decimal_values(sudoku_bin):
    s = shown(sudoku_bin, DATA / "framework-2022-3x4.txt")
    rows = s["rows"].split("/")
    # 10 and 12 in the file are A and C in the protocol's row format.
    assert len(rows) == 12 and rows[0] == "8149....36A." and rows[11] == "6..C....58.7"
    assert s["mode"].startswith("classic scores 0 0 turn 1")


def test_2024_random_mode_owners_from_occupied_squares(sudoku_bin):
    s = shown(sudoku_bin, DATA / "framework-2024-random-3x4.txt")
    rows = s["rows"].split("/")
    # Givens keep no owner although the file marks them '-'; the players' cells keep theirs.
    assert rows[0] == "8149C+7+..36A." and rows[11] == "6B-.C....58.7"
    assert s["mode"] == "random scores 0 0 turn 1 taboo 11,4=1"
    assert s["allowed1"].split()[:3] == ["0,4", "0,5", "0,7"]
    # Player 1 may play its empty starting cells and the empty neighbours of (0,4), (0,5).
    playable = s["playable1"].split()
    assert "1,5" in playable and "0,7" in playable
    assert "0,6" in playable and "0,6" not in s["allowed1"].split()  # a neighbour of (0,5)
    assert "1,4" not in playable  # filled (4)


def test_2024_file_plays_and_searches(sudoku_bin):
    out = session(sudoku_bin, f"position file {DATA / 'framework-2024-random-3x4.txt'}",
                  "play 11,4=1", "go nodes 3000")
    assert out[0] == "error play: illegal move: the player may not play that cell"  # 11,4 is player 2's
    best = out[-1].split()
    assert best[0] == "bestmove" and best[1] != "none"
    r, c = (int(x) for x in best[1].split("=")[0].split(","))
    playable = shown(sudoku_bin, DATA / "framework-2024-random-3x4.txt")["playable1"].split()
    assert f"{r},{c}" in playable


def test_2024_bad_occupied_square_is_one_error(sudoku_bin, tmp_path):
    text = (DATA / "framework-2024-random-3x4.txt").read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("occupied-squares2 = (11,1)", "occupied-squares2 = (11,1), (12,0)"))
    out = session(sudoku_bin, f"position file {bad}", "isready")
    assert len(out) == 2 and out[1] == "readyok", out
    assert out[0].startswith("error position: file '") and out[0].endswith(
        "': occupied-squares2: square (12,0) is off the board"), out


def test_arena_on_framework_boards(sudoku_lab_bin):
    for name in ("framework-2022-3x3.txt", "framework-2024-random-3x4.txt"):
        proc = subprocess.run([str(sudoku_lab_bin), "arena", "--first", "default", "--second", "greedy",
                               "--board", str(DATA / name), "--games", "2", "--movetime", "10", "--quiet"],
                              capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        assert "forfeits default: 0" in proc.stdout, proc.stdout
