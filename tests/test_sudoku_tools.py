"""End-to-end tests of the puzzle command line `sudoku-solver`: solve, count, check, generate,
bench-solver, the project's puzzle collections (`generate --set`), including bad input
(non-zero exit, one line on stderr, never a panic)."""
import subprocess

import pytest

# The first puzzle of the project's hard collection (crates/rules/data/sudoku/hard.txt).
HARD = "..7...5.93.6.........7.48..5..3.629......2.1.8...5.......8..1.26...2......5..39.."

# The collections: set name, file, entries made again by the test (a slice: the whole hard
# set takes a minute), histogram bench-solver prints for the whole file.
SETS = [
    ("minimal", "minimal.txt", 20, "0/3000/0"),
    ("hard", "hard.txt", 2, "0/300/0"),
    ("multiple", "multiple.txt", 50, "0/0/3000"),
    ("none", "no-solution.txt", 5, "1000/0/0"),
    ("counts", "solution-counts.txt", 9, None),
]


def run(binary, *args, input=None, timeout=60):
    return subprocess.run(
        [str(binary), *args], input=input, capture_output=True, text=True, timeout=timeout
    )


def ok(binary, *args):
    r = run(binary, *args)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def entries(path):
    return [l for l in path.read_text().splitlines() if l.strip() and not l.startswith("#")]


def test_solve_and_count_match_the_solution_counts_file(sudoku_solver_bin, data_dir):
    shapes = set()
    for line in entries(data_dir / "sudoku/solution-counts.txt"):
        parts = line.split(":")
        puzzle, count = parts[0], int(parts[1])
        shapes.add(puzzle.split(" ")[0] if " " in puzzle else "3x3")
        assert ok(sudoku_solver_bin, "count", "--limit", "1000", puzzle) == [str(count)]
        [answer] = ok(sudoku_solver_bin, "solve", puzzle)
        if count == 0:
            assert answer == "no solution"
        elif count == 1:
            assert answer == parts[2]
        else:
            assert answer.endswith(" multiple solutions"), answer
            grid = answer.removesuffix(" multiple solutions")
            assert ok(sudoku_solver_bin, "check", grid) == ["ok"]
            given, filled = puzzle.split(" ")[-1], grid.split(" ")[-1]
            assert all(p == "." or p == g for p, g in zip(given, filled))
    assert shapes == {"3x3", "4x4", "5x5"}


@pytest.mark.parametrize("name,file,slice_,histogram", SETS, ids=[s[0] for s in SETS])
def test_generate_set_makes_the_committed_file(sudoku_solver_bin, data_dir, name, file, slice_, histogram):
    """The file's header names the command; its first entries are what the command makes."""
    text = (data_dir / "sudoku" / file).read_text()
    header = text.splitlines()[:2]
    words = header[1].split()
    assert words[:6] == ["#", "made", "by:", "sudoku-solver", "generate", "--set"], header
    assert words[6] == name and words[7] == "--seed" and words[9] == "--count"
    assert len(entries(data_dir / "sudoku" / file)) == int(words[10])
    out = ok(sudoku_solver_bin, "generate", "--set", name, "--seed", words[8], "--count", str(slice_))
    assert out[0] == header[0]
    assert out[1] == f"# made by: sudoku-solver generate --set {name} --seed {words[8]} --count {slice_}"
    assert out[2:] == entries(data_dir / "sudoku" / file)[:slice_]
    # Another seed, other entries.
    other = ok(sudoku_solver_bin, "generate", "--set", name, "--seed", "2", "--count", "1")
    assert other[2] != out[2]


def test_bench_solver_times_the_projects_collections_by_default(sudoku_solver_bin):
    out = ok(sudoku_solver_bin, "bench-solver")
    # The machine line names the processor and the solver's compiled path that ran.
    machine = out.pop(0).split()
    assert machine[:2] == ["machine", "cpu"] and machine[3] == "solver-path"
    assert machine[4] in {"scalar", "avx2"}
    assert machine[5] == "clock" and machine[6] in {"thread-cpu", "wall"}
    assert "nodes/puzzle" in out[0]
    rows = {r.split()[0]: r.split() for r in out[1:]}
    assert list(rows) == [s[1] for s in SETS if s[3]]
    for _, file, _, histogram in SETS:
        if histogram:
            assert rows[file][-1] == histogram
    # The hard set needs more search than the minimal puzzles it is chosen from.
    assert float(rows["hard.txt"][-2]) > 3 * float(rows["minimal.txt"][-2])


def test_solve_file_answers_line_for_line(sudoku_solver_bin, data_dir, tmp_path):
    lines = (data_dir / "sudoku/hard.txt").read_text().splitlines()
    puzzles = [l for l in lines if l and not l.startswith("#")][:50]
    f = tmp_path / "p.txt"
    f.write_text("# comment\n\n" + "\n".join(puzzles) + "\n")
    out = ok(sudoku_solver_bin, "solve", "--file", str(f))
    assert len(out) == 50
    for puzzle, sol in zip(puzzles, out):
        assert len(sol) == 81 and ok(sudoku_solver_bin, "check", sol) == ["ok"]
        assert all(p == "." or p == s for p, s in zip(puzzle, sol))
    assert ok(sudoku_solver_bin, "count", "--file", str(f)) == ["1"] * 50


def test_other_shapes_and_board_files(sudoku_solver_bin, tmp_path):
    assert ok(sudoku_solver_bin, "count", "--limit", "1000", "2x2", "..../..../..../....") == ["288"]
    [sol] = ok(sudoku_solver_bin, "solve", "2x3 1+2-..../....../....../....../....../......")
    shape, rows = sol.split(" ")[:2]
    assert shape == "2x3" and rows.startswith("12")
    assert ok(sudoku_solver_bin, "check", "2x3", rows) == ["ok"]
    # 16x16 with letter values, shape inferred from 16 rows.
    [puzzle] = ok(sudoku_solver_bin, "generate", "--shape", "4x4", "--clues", "160", "--seed", "3")
    assert ok(sudoku_solver_bin, "count", puzzle) == ["1"]
    [sol16] = ok(sudoku_solver_bin, "solve", puzzle.split(" ")[1])
    assert ok(sudoku_solver_bin, "check", sol16) == ["ok"]
    # The course framework's board files, both formats.
    old = tmp_path / "old.txt"
    old.write_text("2 2\n1 2 . .\n. . . .\n. . . 4\n. . . .\n")
    assert ok(sudoku_solver_bin, "count", "--limit", "100", "--file", str(old)) != ["0"]
    new = tmp_path / "new.txt"
    new.write_text("rows = 2\ncolumns = 2\nboard =\n  1+ 2- 3 4\n  3 4 1 2\n  2 1 4 3\n  4 3 2 .\n")
    assert ok(sudoku_solver_bin, "solve", "--file", str(new)) == ["2x2 1234/3412/2143/4321"]


def test_check_names_the_first_broken_region(sudoku_solver_bin):
    good = "2x2 1234/3412/2143/4321"
    assert ok(sudoku_solver_bin, "check", good) == ["ok"]
    for grid, message in [
        ("2x2 1234/3412/2143/4312", "invalid: column 2 has 1 twice"),
        ("2x2 1134/3412/2143/4321", "invalid: row 0 has 1 twice"),
        ("2x2 1234/2341/3412/4123", "invalid: block 0 has 2 twice"),
        ("2x2 1234/34.2/2143/4321", "invalid: row 1 is not filled (cell 1,2 is empty)"),
    ]:
        r = run(sudoku_solver_bin, "check", grid)
        assert r.returncode == 1 and r.stdout.splitlines() == [message]


@pytest.mark.parametrize("shape,args", [
    ("2x3", ["--clues", "14"]),
    ("3x3", ["--clues", "30"]),
    ("3x3", ["--difficulty", "hard"]),
    ("3x4", ["--difficulty", "medium"]),
])
def test_generate_is_unique_and_reproducible(sudoku_solver_bin, tmp_path, shape, args):
    cmd = ["generate", "--shape", shape, "--seed", "11", "--count", "3", *args]
    first = ok(sudoku_solver_bin, *cmd)
    assert first == ok(sudoku_solver_bin, *cmd)
    assert len(first) == 3 and len(set(first)) == 3
    assert first != ok(sudoku_solver_bin, *cmd[:4], "21", *cmd[5:])
    f = tmp_path / "gen.txt"
    f.write_text("\n".join(first) + "\n")
    assert ok(sudoku_solver_bin, "count", "--file", str(f)) == ["1"] * 3
    if args[0] == "--clues":
        for p in first:
            cells = p.split(" ")[-1].replace("/", "")
            assert sum(c not in "." for c in cells) == int(args[1])


def test_bench_solver_prints_a_table(sudoku_solver_bin, data_dir, tmp_path):
    f = tmp_path / "few.txt"
    f.write_text("\n".join([HARD] * 5) + "\n")
    out = ok(sudoku_solver_bin, "bench-solver", "--file", str(f), "--generated", "2x2:3")[1:]
    assert out[0].split()[:3] == ["set", "puzzles", "us/puzzle"]
    assert "median us" in out[0] and "puzzles/s" in out[0] and "nodes/puzzle" in out[0]
    row = out[1].split()
    assert row[0] == "few.txt" and row[1] == "5" and row[-1] == "0/5/0"
    assert float(row[2]) > 0
    # Node counts do not depend on the clock: five copies of one puzzle, one count.
    [nodes] = [r.split()[-2] for r in ok(sudoku_solver_bin, "bench-solver", "--file", str(f))[2:]]
    assert row[-2] == nodes and float(nodes) >= 1
    assert out[2].split()[-1] == "0/3/0"


BAD = [
    ["solve"],
    ["solve", "abc"],
    ["solve", "1" * 81],
    ["solve", HARD[:-1] + "x"],
    ["solve", "2x3", "1234"],
    ["solve", "9x9", "..."],
    ["solve", "0x3", "..."],
    ["solve", "2x2", "5.../..../..../...."],
    ["solve", "a", "b", "c"],
    ["solve", "--file", "/nonexistent/file"],
    ["solve", "--file", "/"],
    ["solve", HARD, "--file", "x"],
    ["count", "--limit", "0", HARD],
    ["count", "--limit", "-3", HARD],
    ["count", "--limit", "many", HARD],
    ["check", "123"],
    ["check"],
    ["generate", "--shape", "7x7"],
    ["generate", "--shape", "3"],
    ["generate", "--shape", "3x3", "--clues", "82"],
    ["generate", "--difficulty", "insane"],
    ["generate", "--clues", "30", "--difficulty", "easy"],
    ["generate", "--seed", "-1"],
    ["generate", "--count", "x"],
    ["generate", "--set", "17-clue"],
    ["generate", "--set", "hard", "--shape", "4x4"],
    ["generate", "--set", "hard", "--clues", "30"],
    ["bench-solver", "--file", "/nonexistent"],
    ["bench-solver", "--generated", "4x4"],
    ["bench-solver", "--generated", "4x4:0"],
    ["bench-solver", "--generated", "9x9:3"],
    ["solve", "--bogus-flag"],
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a)[:40] for a in BAD])
def test_bad_input_is_one_line_and_non_zero(sudoku_solver_bin, args):
    r = run(sudoku_solver_bin, *args)
    assert r.returncode != 0
    if args[0] == "generate":  # every value it refuses is the command line's fault (C12)
        assert r.returncode == 2, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error")
    assert "panicked" not in r.stderr and "backtrace" not in r.stderr
    assert r.stdout == ""


def test_bad_file_contents(sudoku_solver_bin, tmp_path):
    cases = {
        "binary.txt": bytes(range(256)) * 4,
        "empty.txt": b"",
        "badline.txt": (HARD + "\n" + HARD[:40] + "\n").encode(),
        "crlf.txt": (HARD + "\r\n" + HARD + "\r\n").encode(),
        "bad2022.txt": b"3 3\n1 2 3\n",
        "bad2024.txt": b"rows = 2\ncolumns = x\nboard = . . . .\n",
        "huge.txt": b"." * 1_000_000 + b"\n",
    }
    for name, data in cases.items():
        f = tmp_path / name
        f.write_bytes(data)
        r = run(sudoku_solver_bin, "solve", "--file", str(f))
        if name == "crlf.txt":
            assert r.returncode == 0 and len(r.stdout.splitlines()) == 2
            continue
        assert r.returncode != 0, name
        assert len(r.stderr.splitlines()) == 1 and "panicked" not in r.stderr, (name, r.stderr)
    r = run(sudoku_solver_bin, "solve", "--file", str(tmp_path / "badline.txt"))
    assert "line 2" in r.stderr
