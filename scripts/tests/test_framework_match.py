"""scripts/framework_match.py: matches in a copy of a course framework, against the project's
stand-in framework (scripts/tests/framework_stub/v2024) and, when $COMPETITIVE_SUDOKU_FRAMEWORK
is set, the real 2024/25 and 2022/23 frameworks (short games on 2x2 and 2x3 boards)."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
from engine_testing import SCRIPTS, bin_dir, real_engine

from engines import SudokuEngine

MATCH = SCRIPTS / "framework_match.py"
STUB = pathlib.Path(__file__).resolve().parent / "framework_stub" / "v2024"
REAL = os.environ.get("COMPETITIVE_SUDOKU_FRAMEWORK")
GAME_LINE = re.compile(r"game +(\d+): (.+) \(1st\) - (.+) \(2nd\) +(?:(\d+)-(\d+)|forfeit)  (.+ wins|draw)(  \[(.+)\])?$")


def run_match(*args, env=None, timeout=300):
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, str(MATCH), *args], capture_output=True, text=True, timeout=timeout,
                          env=full_env)


def games_of(stdout):
    return [GAME_LINE.match(l).groups() for l in stdout.splitlines() if l.startswith("game ")]


def check_match(proc, a, b, n, jsonl=None):
    """Every game finished and printed; sides alternate; W-D-L, score and sides add up (also
    with the JSON lines); returns the games as (number, first, second, s1, s2, result, forfeit)."""
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    games = sorted(games_of(proc.stdout), key=lambda g: int(g[0]))
    assert [int(g[0]) for g in games] == list(range(1, n + 1)), proc.stdout
    wins = draws = losses = 0
    first_points = second_points = 0.0
    for number, first, second, s1, s2, result, _, forfeit in games:
        a_first = int(number) % 2 == 1
        assert (first, second) == ((a, b) if a_first else (b, a))
        assert (s1 is None) == bool(forfeit)  # a forfeit ends the game without a score
        if not forfeit:  # the framework's winner is the higher score
            assert result == ("draw" if s1 == s2 else f"{first if int(s1) > int(s2) else second} wins")
        points = 0.5 if result == "draw" else 1.0 if result == f"{a} wins" else 0.0
        wins, draws, losses = wins + (points == 1), draws + (points == 0.5), losses + (points == 0)
        if a_first:
            first_points += points
        else:
            second_points += points
    summary = next(l for l in proc.stdout.splitlines() if l.startswith(f"{a} vs {b}: {n} games,"))
    assert f"W-D-L {wins}-{draws}-{losses}" in summary
    assert f"score {wins + draws / 2:g}/{n}" in summary and "95% CI" in summary
    sides = next(l for l in proc.stdout.splitlines() if l.startswith(f"  {a}: as first"))
    assert "as first" in sides and "as second" in sides
    if jsonl is not None:
        records = sorted((json.loads(l) for l in jsonl.read_text().splitlines()), key=lambda r: r["number"])
        assert len(records) == n
        for rec, g in zip(records, games):
            assert rec["scores"] == ([int(g[3]), int(g[4])] if g[3] else None)
            assert rec["player_a"] == a and rec["player_b"] == b
        assert sum(r["a_points"] for r in records) == wins + draws / 2
        assert sum(r["a_points"] for r in records if r["a_first"]) == first_points
    return games


def test_ours_against_a_stub_player(tmp_path):
    real_engine("sudoku-agent", SudokuEngine).quit()
    for attempt in range(2):
        out = tmp_path / f"games{attempt}.jsonl"
        proc = run_match("ours", "first_fit_player", "--framework", str(STUB), "--games", "2", "--time", "0.3",
                         "--jobs", "2", "--threads", "1", "--engine", str(bin_dir() / "sudoku-agent"),
                         "--jsonl", str(out))
        games = check_match(proc, "ours_default", "first_fit_player", 2, out)
        # The adapter found the engine and answered in both seats: ours lost no game by a
        # missing move. That takes an answer within 0.3 s, which a loaded machine may miss
        # once: the match is played again before this counts as a failure.
        ours_forfeited = [g for g in games if g[7] and g[5] != "ours_default wins"]
        if not ours_forfeited:
            break
    assert not ours_forfeited, proc.stdout
    assert not list(STUB.glob("ours_*")), "the stub framework folder itself was written into"


def test_forfeits_any_folder_and_self_play(tmp_path):
    """A player from any folder (copied in under its name) against one that never moves."""
    mine = tmp_path / "my_player"
    shutil.copytree(STUB / "first_fit_player", mine)
    proc = run_match(str(mine), "silent_player", "--framework", str(STUB), "--games", "3", "--time", "0.05",
                     "--jobs", "2")
    games = check_match(proc, "my_player", "silent_player", 3)
    assert all(g[5] == "my_player wins" and "No move was supplied" in g[7] for g in games)
    assert "W-D-L 3-0-0" in proc.stdout and "as first 2-0-0" in proc.stdout and "as second 1-0-0" in proc.stdout
    assert "forfeits (games lost by a taboo-listed, invalid or missing move): my_player 0, silent_player 3" in proc.stdout
    # The same player on both sides is labelled A and B.
    proc = run_match("first_fit_player", "first_fit_player", "--framework", str(STUB), "--games", "2", "--time", "0.05")
    check_match(proc, "first_fit_player (A)", "first_fit_player (B)", 2)


def test_agent_settings_reach_the_adapter(tmp_path):
    """Two of ours with different agents: each player module carries its own settings."""
    import framework_match

    engine = bin_dir() / "sudoku-agent"
    a = framework_match.parse_player("ours:greedy", STUB, "default")
    b = framework_match.parse_player("ours", STUB, "default", a)
    copy = framework_match.make_copy(STUB, tmp_path / "fw")
    framework_match.install_players(copy, [a, b], engine, {"Threads": "1"})
    code = (copy / "ours_greedy" / "sudokuai.py").read_text()
    assert "'SUDOKU_AGENT_OPTIONS': 'Agent=greedy,Threads=1'" in code and str(engine) in code
    assert "Agent=default,Threads=1" in (copy / "ours_default" / "sudokuai.py").read_text()
    real_engine("sudoku-agent", SudokuEngine).quit()
    proc = run_match("ours:default", "ours:greedy", "--framework", str(STUB), "--games", "2", "--time", "0.2",
                     "--jobs", "2", "--threads", "1", "--engine", str(engine))
    check_match(proc, "ours_default", "ours_greedy", 2)


def test_our_players_own_times_reach_the_engine(tmp_path):
    """`ours@SECONDS`: that player's engine gets `go movetime` of its own time, the other of
    ours thinks until the framework's deadline (`go infinite`); without --time the framework's
    time is the longest of them (at least 0.5 s). Seen in what the engines receive, through a
    wrapper that logs each engine's input with its options."""
    import framework_match

    a = framework_match.parse_player("ours:territory@2", STUB, "default")
    assert (a.agent, a.movetime_ms, a.seconds, a.name) == ("territory", 2000, 2.0, "ours_territory_2000ms")
    b = framework_match.parse_player("ours@0.1", STUB, "default", a)
    assert (b.agent, b.movetime_ms, b.name) == ("default", 100, "ours_default_100ms")
    assert framework_match.parse_player("ours", STUB, "default").movetime_ms is None
    # Two of ours with the same agent and different times are two modules.
    c = framework_match.parse_player("ours@0.3", STUB, "default", b)
    assert c.name != b.name

    log = tmp_path / "engine-input.log"
    wrapper = tmp_path / "logging-engine"
    wrapper.write_text("#!/bin/sh\n"
                       "while IFS= read -r line; do\n"
                       f"  printf '%s|%s\\n' \"$SUDOKU_AGENT_OPTIONS\" \"$line\" >> '{log}'\n"
                       "  printf '%s\\n' \"$line\"\n"
                       f"done | exec '{bin_dir() / 'sudoku-agent'}'\n")
    wrapper.chmod(0o755)
    real_engine("sudoku-agent", SudokuEngine).quit()
    proc = run_match("ours:greedy@0.05", "ours", "--framework", str(STUB), "--games", "2", "--threads", "1",
                     "--engine", str(wrapper), "--jobs", "2")
    games = check_match(proc, "ours_greedy_50ms", "ours_default", 2)
    assert "0.5 s per move (ours_greedy_50ms thinks 0.05 s, ours_default until the deadline)" in proc.stdout
    assert all(not g[7] for g in games), proc.stdout  # no forfeits
    goes = {}
    for line in log.read_text().splitlines():
        options, _, sent = line.partition("|")
        if sent.startswith("go"):
            goes.setdefault(options, set()).add(sent)
    assert goes == {"Agent=greedy,Threads=1": {"go movetime 50"}, "Agent=default,Threads=1": {"go infinite"}}, goes


@pytest.mark.parametrize("args, message", [
    (["ours", "nobody"], "player 'nobody': not 'ours'"),
    (["ours:nosuchagent", "first_fit_player"], "has no agent 'nosuchagent'"),
    (["ours", "first_fit_player", "--board", "no-such-board"], "board 'no-such-board'"),
    (["ours", "first_fit_player", "--options", "Threads"], "expected Name=value"),
    (["ours", "first_fit_player", "--games", "0"], "--games and --jobs must be at least 1"),
    (["ours@0", "first_fit_player"], "the time after @ must be seconds"),
    (["ours:territory@fast", "first_fit_player"], "the time after @ must be seconds"),
    (["ours", "first_fit_player@1"], "only ours takes a time of its own"),
    (["ours@2", "first_fit_player", "--time", "0.5"], "longer than --time 0.5"),
])
def test_bad_input_is_one_line(args, message):
    proc = run_match(*args, "--framework", str(STUB), "--engine", str(bin_dir() / "sudoku-agent"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and message in proc.stderr and "Traceback" not in proc.stderr


def test_no_framework_is_one_line(tmp_path):
    env = dict(os.environ)
    env.pop("COMPETITIVE_SUDOKU_FRAMEWORK", None)
    proc = subprocess.run([sys.executable, str(MATCH), "ours", "greedy_player"], capture_output=True, text=True,
                          timeout=30, env=env)
    assert proc.returncode == 2 and "set $COMPETITIVE_SUDOKU_FRAMEWORK" in proc.stderr and proc.stderr.count("\n") == 1
    proc = run_match("ours", "greedy_player", "--framework", str(tmp_path))
    assert proc.returncode == 2 and "is not a course framework folder" in proc.stderr


needs_framework = pytest.mark.skipif(
    not REAL, reason="real course framework not available: set COMPETITIVE_SUDOKU_FRAMEWORK to the folder "
                     "holding competitive-sudoku-2024 and competitive-sudoku-2022")


@needs_framework
def test_real_2024_framework_rows_mode(tmp_path):
    real_engine("sudoku-agent", SudokuEngine).quit()
    out = tmp_path / "games.jsonl"
    proc = run_match("ours", "greedy_player", "--framework", "2024", "--board", "empty-2x2", "--playmode", "rows",
                     "--games", "2", "--jobs", "2", "--time", "0.3", "--threads", "1",
                     "--engine", str(bin_dir() / "sudoku-agent"), "--jsonl", str(out))
    check_match(proc, "ours_default", "greedy_player", 2, out)
    assert "in competitive-sudoku-2024, board boards/empty-2x2.txt, mode rows" in proc.stdout
    records = [json.loads(l) for l in out.read_text().splitlines()]
    assert all(r["playmode"] == "rows" for r in records)


@needs_framework
def test_real_2024_framework_own_times(tmp_path):
    """In the real framework, ours thinking 0.1 s meets ours:territory thinking 0.6 s: the
    framework's time is the longer, both games finish without a forfeit."""
    real_engine("sudoku-agent", SudokuEngine).quit()
    out = tmp_path / "games.jsonl"
    proc = run_match("ours@0.1", "ours:territory@0.6", "--framework", "2024", "--board", "empty-2x2",
                     "--playmode", "rows", "--games", "2", "--jobs", "2", "--threads", "1",
                     "--engine", str(bin_dir() / "sudoku-agent"), "--jsonl", str(out))
    games = check_match(proc, "ours_default_100ms", "ours_territory_600ms", 2, out)
    assert all(not g[7] for g in games), proc.stdout
    assert "0.6 s per move (ours_default_100ms thinks 0.1 s, ours_territory_600ms 0.6 s)" in proc.stdout
    records = [json.loads(l) for l in out.read_text().splitlines()]
    assert all((r["time"], r["time_a"], r["time_b"]) == (0.6, 0.1, 0.6) for r in records)


@needs_framework
def test_real_2022_framework_classic(tmp_path):
    real_engine("sudoku-agent", SudokuEngine).quit()
    framework = pathlib.Path(REAL) / "competitive-sudoku-2022"
    proc = run_match("greedy_player", "ours:default", "--framework", str(framework), "--board", "2x3",
                     "--games", "2", "--jobs", "2", "--time", "0.3", "--threads", "1",
                     "--engine", str(bin_dir() / "sudoku-agent"))
    check_match(proc, "greedy_player", "ours_default", 2)
    proc = run_match("ours", "greedy_player", "--framework", str(framework), "--playmode", "rows")
    assert proc.returncode == 2 and "plays classic rules only" in proc.stderr


@needs_framework
def test_real_2024_framework_classic_mode_is_explained():
    """The 2024/25 framework's own board printer fails in classic mode before any move; the
    match says so on the game's line and points to the 2022/23 framework (if a later copy of
    the framework plays classic, the game simply counts)."""
    proc = run_match("greedy_player", "random_player", "--framework", "2024", "--board", "empty-2x2",
                     "--playmode", "classic", "--games", "1", "--time", "0.2")
    if proc.returncode == 1:
        assert "play classic rules with --framework 2022" in proc.stdout, proc.stdout
    else:
        check_match(proc, "greedy_player", "random_player", 1)


def test_framework_games_as_records(tmp_path):
    """`--record`: the framework's moves (from its running commentary) as a record that the
    engine's `replay` plays to the framework's score."""
    board = tmp_path / "empty-2x2.txt"
    board.write_text("2 2\n" + "   .   .   .   .\n" * 4)
    rec = tmp_path / "games.txt"
    proc = run_match("ours", "first_fit_player", "--framework", str(STUB), "--games", "2", "--time", "0.3",
                     "--threads", "1", "--board", str(board), "--playmode", "classic",
                     "--engine", str(bin_dir() / "sudoku-agent"), "--record", str(rec))
    games = check_match(proc, "ours_default", "first_fit_player", 2)
    check = subprocess.run([str(bin_dir() / "sudoku-lab"), "replay", str(rec)], capture_output=True, text=True,
                           timeout=60)
    assert check.returncode == 0, check.stderr + rec.read_text()
    text = rec.read_text()
    assert "player1 ours_default" in text and "player1 first_fit_player" in text
    heads = [l for l in check.stdout.splitlines() if l.startswith("game ")]
    for (number, first, second, s1, s2, result, _, forfeit), head in zip(games, heads):
        if not forfeit:
            assert f"game {number} " in head and f"scores {s1} {s2} " in head, (head, proc.stdout)
        winner = "draw" if result == "draw" else "1" if result == f"{first} wins" else "2"
        assert head.endswith(f"winner {winner}")
    # Random mode's squares are the framework's own draw: refused with --record.
    proc = run_match("ours", "first_fit_player", "--framework", str(STUB), "--board", str(board), "--playmode",
                     "random", "--engine", str(bin_dir() / "sudoku-agent"), "--record", str(rec))
    assert proc.returncode == 2 and "random" in proc.stderr and "Traceback" not in proc.stderr


SUITE_ROWS = ("position 2x2 ..3+./..../..../.1-.. mode rows turn 1 scores 0 0 allowed1 0,0 0,1 0,2 0,3 "
              "allowed2 3,0 3,1 3,2 3,3\n"
              "position 2x2 4+.../..../..../...1- mode rows turn 1 scores 0 0 allowed1 0,0 0,1 0,2 0,3 "
              "allowed2 3,0 3,1 3,2 3,3\n")


def test_openings_become_framework_board_files():
    """An opening as each framework reads it: the 2024/25 game state (owners, allowed squares,
    scores, turn, taboo moves), the 2022/23 board of givens; what a framework cannot start
    from is refused with the reason."""
    sys.path.insert(0, str(SCRIPTS))
    import framework_match as fm

    o = fm.parse_opening("position 2x2 ..3+./..../..../.1-.. mode rows turn 2 scores 3 4 taboo 1,1=2 "
                         "allowed1 0,0 0,1 allowed2 3,0 3,1")
    text = fm.opening_board_file(o, has_playmode=True)
    assert "   . . 3+ .\n" in text and "   . 1- . .\n" in text
    for line in ("taboo-moves = [(1,1) -> 2]", "scores = [3, 4]", "current-player = 2",
                 "allowed-squares1 = (0,0), (0,1)", "allowed-squares2 = (3,0), (3,1)",
                 "occupied-squares1 = (0,2)", "occupied-squares2 = (3,1)"):
        assert line + "\n" in text, text
    classic = fm.parse_opening("position 2x2 1+.../..../..../...2-")
    assert classic.turn == 1 and classic.mode == "classic"
    assert fm.opening_board_file(classic, has_playmode=False) == "2 2\n  1   .   .   .\n" + "  .   .   .   .\n" * 2 + "  .   .   .   2\n"
    for opening, playmode, why in ((classic, True, "fails in classic mode"),
                                   (o, False, "takes classic openings"),
                                   (fm.parse_opening("position 2x2 1.../..../..../.... mode rows"), True, "givens")):
        with pytest.raises(fm.MatchError, match=why):
            fm.opening_board_file(opening, playmode)
    for bad in ("position 2x2 ..../....", "position 2x2 5.../..../..../....", "go movetime 5",
                "position 2x2 ..../..../..../.... mode rows allowed1 x"):
        with pytest.raises(ValueError):
            fm.parse_opening(bad)


def test_bad_opening_files_are_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# suite\nposition 2x2 ..../....\n")
    proc = run_match("greedy_player", "random_player", "--framework", str(STUB), "--openings", str(bad))
    assert proc.returncode == 2 and "line 2:" in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    good = tmp_path / "good.txt"
    good.write_text(SUITE_ROWS)
    proc = run_match("greedy_player", "random_player", "--framework", str(STUB), "--openings", str(good),
                     "--board", "2x2")
    assert proc.returncode == 2 and "no --board or --record" in proc.stderr


@needs_framework
def test_real_2024_framework_plays_an_opening_suite(tmp_path):
    """Each opening twice, sides swapped, from the opening's position: the framework's moves
    never fill a cell the opening filled, and the distinct games are counted."""
    suite = tmp_path / "suite.txt"
    suite.write_text(SUITE_ROWS)
    out = tmp_path / "games.jsonl"
    proc = run_match("greedy_player", "random_player", "--framework", "2024", "--openings", str(suite),
                     "--time", "1", "--jobs", "2", "--jsonl", str(out))
    check_match(proc, "greedy_player", "random_player", 4, out)
    assert f"4 games in competitive-sudoku-2024, 2 openings of {suite}, mode rows" in proc.stdout
    records = sorted((json.loads(l) for l in out.read_text().splitlines()), key=lambda r: r["number"])
    assert [(r["opening"], r["a_first"]) for r in records] == [(1, True), (1, False), (2, True), (2, False)]
    distinct = re.search(r"distinct games: (\d+) of 4 ", proc.stdout)
    assert distinct and 1 <= int(distinct.group(1)) <= 4, proc.stdout


@needs_framework
def test_real_2022_framework_plays_classic_openings(tmp_path):
    suite = tmp_path / "suite.txt"
    suite.write_text("position 2x2 ..3./..../..../.1.. mode classic\n")
    proc = run_match("greedy_player", "random_player", "--framework", "2022", "--openings", str(suite),
                     "--time", "1", "--jobs", "2")
    check_match(proc, "greedy_player", "random_player", 2)
    assert "distinct games:" in proc.stdout
    rows = tmp_path / "rows.txt"
    rows.write_text(SUITE_ROWS)
    proc = run_match("greedy_player", "random_player", "--framework", "2022", "--openings", str(rows))
    assert proc.returncode == 2 and "takes classic openings" in proc.stderr
