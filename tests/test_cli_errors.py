"""Bad command lines of both binaries: each exits with code 2 (convention C12, whether the
argument parser or the tool's own check refuses it) with exactly one line on stderr (no panic,
no usage dump) and nothing on stdout."""
import pytest

from engine_cli import run_failing_cli

BAD = [
    ("blockudoku-lab", ["selfplay"]),
    ("blockudoku-lab", ["selfplay", "--games", "x", "--seed", "1"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--agent", "nope"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--agent", "default:score"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "per_point=0"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--pieces", "/nonexistent/pieces.txt"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "cornered=x"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "corners=5"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "cornered=-5"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "cornered"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "next_hands=0"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "0"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--burn-in", "10"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--probes", "exact"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "10", "--probes", "0"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "10", "--probes", "some"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "10", "--compare", "default"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "10", "--compare", "default,best"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "10", "--compare", "a,b,c"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "10", "--compare", "default,strong/death_price"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--chain-rounds", "10", "--compare", "default,strong/corners=5"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "candidates=0"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "weigh_crowded=2"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "crisis_entry=-1"]),
    ("blockudoku-lab", ["selfplay", "--games", "1", "--seed", "1", "--weights", "low_risk_price=-1"]),
    ("blockudoku-lab", ["crises", "--agents", "default", "--positions-from", "nobody"]),
    ("blockudoku-lab", ["crises", "--agents", "default", "--positions-from", "strong/death_price"]),
    ("blockudoku-lab", ["crises", "--agents", "default", "--positions", "0"]),
    ("blockudoku", ["frobnicate"]),
    ("blockudoku", ["selfplay", "--games", "1"]),
    ("blockudoku", ["bench", "--nodes", "-1"]),
    ("sudoku-lab", ["arena", "--first", "nobody", "--second", "greedy"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--board", "/nonexistent/file"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--board", "7x7"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--games", "0"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--movetime", "-4"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--mode", "chess"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--givens", "40-20"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--nodes", "0"]),
    ("sudoku-lab", ["arena", "--first", "default@10", "--second", "greedy", "--first-movetime", "20"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--second-movetime", "0"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--first-nodes", "0"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--first-nodes", "5",
                      "--first-movetime", "5"]),
    ("sudoku-lab", ["arena", "--first", "default", "--second", "greedy", "--threads", "0"]),
    ("sudoku-agent", ["bench", "--nodes", "lots"]),
    ("sudoku-agent", ["--no-such-flag"]),
    ("sudoku-agent", ["frobnicate"]),
]


@pytest.mark.parametrize("binary,args", BAD, ids=[f"{b}:{' '.join(a)}" for b, a in BAD])
def test_cli_errors_exit_nonzero_with_one_line(request, binary, args):
    fixture = {"blockudoku": "blockudoku_bin", "blockudoku-lab": "blockudoku_lab_bin",
               "sudoku-agent": "sudoku_bin", "sudoku-lab": "sudoku_lab_bin"}[binary]
    proc = run_failing_cli(request.getfixturevalue(fixture), args)
    assert proc.stdout == ""
    assert proc.returncode == 2, proc.stderr
