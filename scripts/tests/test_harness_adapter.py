"""Course-framework adapter (scripts/framework_player/sudokuai.py) against stand-ins of both
framework versions, run the way the framework runs a player: killed at the deadline."""
import json
import os
import pathlib
import subprocess
import sys

import pytest
from engine_testing import FAKE, SCRIPTS, bin_dir, real_engine

from engines import EngineError, SudokuEngine, SudokuMove

STUB = pathlib.Path(__file__).resolve().parent / "framework_stub"
RUNNER = STUB / "run_player.py"


def framework_path(version):
    """PYTHONPATH of a player process in a framework folder: the framework's modules and ours."""
    return os.pathsep.join([str(STUB / version), str(SCRIPTS)])


def run_player(version, scenario, seconds, **env):
    full_env = dict(os.environ, PYTHONPATH=framework_path(version), **env)
    proc = subprocess.run([sys.executable, str(RUNNER), version, scenario, str(seconds)],
                          capture_output=True, text=True, timeout=30, env=full_env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


EXPECTED_POSITIONS = {
    ("v2022", "midgame2x2"): "position 2x2 1+.../..../..../...2- mode classic turn 2 scores 0 0 taboo 0,1=1",
    ("v2024", "midgame2x2"): "position 2x2 1+.../..../..../...2- mode rows turn 2 scores 0 0 taboo 0,1=1 "
                             "allowed1 0,0 0,1 0,2 0,3 allowed2 3,0 3,1 3,2 3,3",
}


@pytest.mark.parametrize("version", ["v2022", "v2024"])
def test_adapter_with_scripted_engine(version):
    """A fake agent proposes 0,1=1, 0,2=1, 0,3=1 and then waits: the last proposal must count."""
    out = run_player(version, "midgame2x2", 0.8, SUDOKU_AGENT_CMD=f"{sys.executable} {FAKE} sudoku")
    assert out["position"] == EXPECTED_POSITIONS[(version, "midgame2x2")]
    assert out["move"] == [0, 3, 1]  # the last of the three proposals
    assert out["engine_pids"] and out["engine_alive_after_kill"] == []


@pytest.mark.parametrize("junk", ["propose 0;0=1", "propose 0,0", "propose 9,9=1", "propose 0,1=7",
                                  "propose 0,0=3", "propose x,1=1", "propose 0,-1=1",
                                  "propose 0,1=\u00b2", "propose \u00b9,1=1", "propose 0,1=" + "1" * 5000])
def test_adapter_keeps_its_last_legal_move_when_the_engine_prints_junk(junk):
    """The fake engine prints `junk` after its first and after its last proposal: the player
    neither raises nor passes the junk on; the last legal proposal (0,3=1) counts."""
    out = run_player("v2024", "midgame2x2", 0.8, SUDOKU_AGENT_CMD=f"{sys.executable} {FAKE} sudoku --junk '{junk}'")
    assert out["move"] == [0, 3, 1]


@pytest.mark.parametrize("version", ["v2022", "v2024"])
@pytest.mark.parametrize("scenario", ["midgame2x2", "empty3x3"])
def test_adapter_with_real_agent(version, scenario):
    engine = real_engine("sudoku-agent", SudokuEngine)
    out = run_player(version, scenario, 0.6, SUDOKU_AGENT_BIN=str(bin_dir() / "sudoku-agent"))
    assert out["move"] is not None, "no move proposed within 0.6 s"
    assert out["engine_alive_after_kill"] == [], "the engine outlived the killed player"
    # The agent's own referee accepts the move in the position the adapter sent.
    with engine:
        engine.command(out["position"])
        i, j, value = out["move"]
        try:
            reply = engine.play(SudokuMove(i, j, value))
        except EngineError as err:
            pytest.fail(f"the proposed move {out['move']} is illegal: {err}")
        assert reply.outcome == "placed", reply.line  # the agent never plays a taboo move here


def test_adapter_movetime_mode_returns_on_its_own(tmp_path):
    """With SUDOKU_AGENT_MOVETIME the player returns after `bestmove` instead of being killed."""
    real_engine("sudoku-agent", SudokuEngine).quit()
    code = """
from competitive_sudoku.sudoku import GameState, SudokuBoard
from framework_player.sudokuai import SudokuAI
p = SudokuAI()
p.compute_best_move(GameState(SudokuBoard(2, 2), SudokuBoard(2, 2), [], [], [0, 0], 1))
print(p.best_move)
"""
    env = dict(os.environ, PYTHONPATH=framework_path("v2024"), SUDOKU_AGENT_BIN=str(bin_dir() / "sudoku-agent"),
               SUDOKU_AGENT_MOVETIME="50",
               SUDOKU_AGENT_OPTIONS="Threads=1,Agent=greedy")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20, env=env)
    assert proc.returncode == 0, proc.stderr
    i, j, value = json.loads(proc.stdout.strip())
    assert 1 <= value <= 4 and 0 <= i < 4 and 0 <= j < 4


def run_compute_best_move(seconds, **env):
    """compute_best_move on the v2024 stand-in's midgame2x2 position in a process of its own:
    (the process, the move it kept or None). Fails when it has not returned within `seconds`."""
    code = """
import json, sys
sys.argv = ["run_player.py", "v2024", "midgame2x2", "0"]
import run_player
from framework_player.sudokuai import SudokuAI
p = SudokuAI()
p.compute_best_move(run_player.scenario())
print(json.dumps(None if p.best_move[2] == 0 else list(p.best_move)))
"""
    full_env = dict(os.environ, PYTHONPATH=os.pathsep.join([framework_path("v2024"), str(STUB)]), **env)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds, env=full_env)
    lines = proc.stdout.strip().splitlines()
    return proc, json.loads(lines[-1]) if lines else None


def test_adapter_with_movetime_proposes_nothing_for_a_refused_position():
    """The engine refuses the position: no `go` is sent, so nothing found on the engine's
    own empty 9x9 board is proposed; one line on stderr says why."""
    proc, move = run_compute_best_move(20, SUDOKU_AGENT_MOVETIME="50",
                                       SUDOKU_AGENT_CMD=f"{sys.executable} {FAKE} sudoku --error-on-position")
    assert proc.returncode == 0, proc.stderr
    assert move is None
    assert "refused by the fake" in proc.stderr and "Traceback" not in proc.stderr


def test_adapter_with_movetime_returns_from_a_hung_engine_with_its_last_proposal():
    """The engine proposes three moves and then hangs: compute_best_move returns once the
    movetime plus the margin has passed, keeping the last legal proposal."""
    proc, move = run_compute_best_move(20, SUDOKU_AGENT_MOVETIME="100",
                                       SUDOKU_AGENT_CMD=f"{sys.executable} {FAKE} sudoku --hang-on-go")
    assert proc.returncode == 0, proc.stderr
    assert move == [0, 3, 1]


@pytest.mark.parametrize("setting", ["SUDOKU_AGENT_MOVETIME=abc", "SUDOKU_AGENT_MOVETIME=-5",
                                     "SUDOKU_AGENT_OPTIONS=Threads"])
def test_adapter_refuses_a_bad_setting_in_one_line(setting):
    name, _, value = setting.partition("=")
    proc, move = run_compute_best_move(20, **{name: value, "SUDOKU_AGENT_CMD": f"{sys.executable} {FAKE} sudoku"})
    assert proc.returncode == 0, proc.stderr
    assert move is None
    assert len(proc.stderr.strip().splitlines()) == 1 and name in proc.stderr, proc.stderr
