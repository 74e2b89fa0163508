"""Engine driver (scripts/engines): handshake, typed results, errors, timeouts, dead engines."""
import sys
import time

import pytest
from engine_testing import fake_command, real_engine

from engines import (
    BlockudokuEngine,
    EngineDied,
    EngineError,
    EngineOption,
    EngineTimeout,
    Placement,
    ProtocolViolation,
    SudokuEngine,
    SudokuMove,
    parse_info,
    parse_rows,
    rows_string,
)
from engines.sudoku import PlayReply, SudokuState


# --- parsing, no process ---------------------------------------------------------------------

def test_option_lines():
    opt = EngineOption.parse("option name Threads type spin default 2 min 1 max 256")
    assert (opt.name, opt.type, opt.default, opt.min, opt.max) == ("Threads", "spin", "2", 1, 256)
    opt = EngineOption.parse("option name Agent type combo default default var random var default")
    assert opt.default == "default" and opt.choices == ["random", "default"]
    with pytest.raises(ProtocolViolation):
        EngineOption.parse("option name Broken type")


def test_info_lines():
    info = parse_info("info depth 3 nodes 1200 nps 5.5 score -4 exact pv 0,0=1 1,1=2")
    assert info == {"depth": 3, "nodes": 1200, "nps": 5.5, "score": -4, "exact": True, "pv": ["0,0=1", "1,1=2"]}


def test_placements_and_moves_round_trip():
    assert str(Placement.parse("2@r9c1")) == "2@r9c1"
    assert Placement.parse("3@r1c5") == Placement(3, 1, 5)
    for bad in ("4@r1c1", "1@r0c1", "1r1c1", "1@r10c1"):
        with pytest.raises(ProtocolViolation):
            Placement.parse(bad)
    assert SudokuMove.parse("10,3=12") == SudokuMove(10, 3, 12)
    assert str(SudokuMove(3, 4, 7)) == "3,4=7"


def test_rows_with_owners():
    rows = "1+2-../..../..../...A"
    values, owners = parse_rows(rows)
    assert values[0] == [1, 2, 0, 0] and owners[0] == [1, 2, 0, 0] and values[3][3] == 10
    assert rows_string(values, owners) == rows


def test_position_lines():
    line = BlockudokuEngine.position_line("#" + "." * 80, [1, "##/#."], score=5, streak=1)
    assert line == "position board #......../" + "/".join(["." * 9] * 8) + " pieces 1 ##/#. score 5 streak 1"
    assert BlockudokuEngine.position_line(None, [3]) == "position empty pieces 3"
    assert BlockudokuEngine.position_line(None, [None, 3, "-"]) == "position empty pieces - 3 -"
    with pytest.raises(ValueError):
        BlockudokuEngine.position_line(None, [None, None])
    with pytest.raises(ValueError):
        BlockudokuEngine.position_line(None, [1, 2, 3, 4])
    line = SudokuEngine.position_line(2, 2, "..../..../..../....", mode="rows", turn=2, scores=(1, 0),
                                      taboo=[SudokuMove(0, 0, 1)], allowed1=[(0, 0)], allowed2=[(3, 3)])
    assert line == "position 2x2 ..../..../..../.... mode rows turn 2 scores 1 0 taboo 0,0=1 allowed1 0,0 allowed2 3,3"


def test_blockudoku_play_replies():
    state = BlockudokuEngine.parse_state(
        "position board #......../" + "/".join(["." * 9] * 8) + " pieces - 2 ##/#. score 1 streak 0 cleared 0")
    assert state.pieces == [None, "2", "##/#."] and state.board.count("#") == 1 and state.score == 1
    assert BlockudokuEngine.parse_state("position empty pieces none score 0 streak 0 cleared 0").pieces == []
    with pytest.raises(ProtocolViolation):
        BlockudokuEngine.parse_state("position board #.# pieces 1")


def test_play_replies_and_show():
    reply = PlayReply.parse("played 1,2=3 placed 3 scores 3 0 turn 2 result 1")
    assert (reply.outcome, reply.move, reply.points, reply.scores, reply.turn, reply.result) == (
        "placed", SudokuMove(1, 2, 3), 3, (3, 0), 2, "1")
    assert PlayReply.parse("played 0,0=1 taboo scores 0 0 turn 1").outcome == "taboo"
    assert PlayReply.parse("passed scores 0 0 turn 2").move is None
    with pytest.raises(ProtocolViolation):
        PlayReply.parse("played 0,0=1")
    state = SudokuState.parse_show([
        "1 . . |. . .", ". . . |. . .", "------+------", ". . . |. . .", ". . . |. . .", ". . . |. . .", ". . . |. . .",
        "rows 1+...../....../....../....../....../......",
        "mode rows scores 3 0 turn 2 taboo 1,1=2", "allowed1 0,0 0,1", "playable1 0,1 1,0",
        "playable2 none",
    ])
    assert (state.m, state.n, state.mode, state.scores, state.turn) == (2, 3, "rows", (3, 0), 2)
    assert state.taboo == [SudokuMove(1, 1, 2)] and state.starts[1] == [(0, 0), (0, 1)]
    assert state.starts[2] is None
    assert state.allowed[1] == [(0, 1), (1, 0)] and state.allowed[2] == []


def test_show_of_real_engine_reports_playable_cells():
    with real_engine("sudoku-agent", SudokuEngine) as engine:
        engine.position(2, 2, "1.../..../..../....", mode="rows")
        engine.play(SudokuMove(0, 1, 2))
        state = engine.state()
    assert state.starts[1] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert state.allowed[1] == [(0, 2), (0, 3), (1, 0), (1, 1), (1, 2)]
    assert state.allowed[2] == [(3, 0), (3, 1), (3, 2), (3, 3)] and state.turn == 2


# --- fake engines: typed errors and timeouts ----------------------------------------------------

def test_fake_blockudoku_round_trip():
    with BlockudokuEngine(fake_command("blockudoku")) as engine:
        assert engine.name == "fake" and engine.protocol == "blockudoku 1"
        assert engine.options["Scoring"].choices == ["classic", "simple"]
        assert engine.isready() < 10  # behaviour, not speed: CI shares 2 cores
        engine.position(pieces=[28, 1])
        result = engine.go(movetime=50)
        assert not result.lost and [p.slot for p in result.placements] == [1, 2]
        assert result.last_info["nodes"] == 1
        state = engine.play(result.placements)
        assert state.board.count("#") == 5 and state.pieces == [] and state.score == 5
        engine.position(board="#" * 80 + ".", pieces=[28])
        assert engine.go().lost
        proc = engine.proc
    assert proc.poll() == 0  # the context manager ended it with quit


def test_error_line_becomes_engine_error():
    with BlockudokuEngine(fake_command("blockudoku", "--error-on-position")) as engine:
        with pytest.raises(EngineError) as info:
            engine.position(pieces=[1])
        assert "refused by the fake" in info.value.message
        assert info.value.command.startswith("position")
        engine.isready()  # still usable afterwards
    with BlockudokuEngine(fake_command("blockudoku")) as engine:
        with pytest.raises(EngineError):
            engine.setoption("NoSuchOption", 1)
        engine.position(pieces=[1, 2])
        with pytest.raises(EngineError):
            engine.play(["1@r1c1", "1@r5c5"])  # a slot used twice: refused, nothing changed
        assert engine.play(["1@r1c1"]).pieces == [None, "2"]


def test_dead_engine_reports_exit_code_and_stderr():
    engine = BlockudokuEngine(fake_command("blockudoku", "--die-on-go", "1", "--exit-code", "7"))
    engine.position(pieces=[1])
    with pytest.raises(EngineDied) as info:
        engine.go(movetime=100)
    assert info.value.exit_code == 7
    assert "dying on purpose" in info.value.stderr_tail
    with pytest.raises(EngineDied):
        engine.isready()  # every later command sees the death too
    engine.quit()


def test_engine_that_does_not_start():
    with pytest.raises(EngineDied) as info:
        BlockudokuEngine(["/nonexistent/blockudoku"])
    assert info.value.exit_code is None
    crash = [sys.executable, "-c", "import sys; sys.stderr.write('no way\\n'); sys.exit(4)"]
    with pytest.raises(EngineDied) as info:
        BlockudokuEngine(crash)
    assert info.value.exit_code == 4 and "no way" in info.value.stderr_tail


def test_silent_engine_times_out_at_startup():
    start = time.monotonic()
    with pytest.raises(EngineTimeout):
        BlockudokuEngine(fake_command("blockudoku", "--silent"), startup_timeout=0.5)
    assert time.monotonic() - start < 10  # the 0.5 s timeout fired, not a hang


def test_search_over_its_limit_times_out_and_resyncs():
    with BlockudokuEngine(fake_command("blockudoku", "--hang-on-go"), margin=0.3) as engine:
        engine.position(pieces=[1])
        start = time.monotonic()
        with pytest.raises(EngineTimeout):
            engine.go(movetime=50)
        assert time.monotonic() - start < 10  # the timeout fired, not a hang
        # The late bestmove was consumed: the next exchange is in step.
        assert engine.isready() < 10
        engine.position(board="#" + "." * 80, pieces=[28])
        result = engine.go(infinite=True, stop_after=0.1)
        assert result.placements == [Placement(1, 1, 2)]  # this position's answer, not the stale one


def test_engine_deaf_to_stop_is_killed():
    engine = BlockudokuEngine(fake_command("blockudoku", "--deaf-on-go"), margin=0.2)
    engine.stop_grace = 0.3
    engine.position(pieces=[1])
    with pytest.raises(EngineTimeout):
        engine.go(movetime=20)
    assert not engine.alive


# --- each answer matched to its request: an engine that answers one request twice ------------

def test_second_bestmove_for_one_go_is_not_the_next_answer(caplog):
    with BlockudokuEngine(fake_command("blockudoku", "--two-bestmoves")) as engine:
        engine.position(pieces=[1])
        assert engine.go(movetime=50).placements == [Placement(1, 1, 1)]
        # The next go gets its own answer, not the extra `bestmove 1@r9c9` of the first.
        assert engine.go(movetime=50).placements == [Placement(1, 1, 1)]
        assert engine.play([Placement(1, 1, 1)]).board.count("#") == 1
        assert list(engine.stray_lines) == [("go movetime 50", "bestmove 1@r9c9")]
    assert any("bestmove 1@r9c9" in r.getMessage() and "go movetime 50" in r.getMessage() for r in caplog.records)


def test_bestmove_after_an_error_is_not_the_next_answer():
    with BlockudokuEngine(fake_command("blockudoku", "--error-then-bestmove")) as engine:
        engine.position(pieces=[1])
        with pytest.raises(EngineError) as info:
            engine.go(movetime=50)
        assert "refused by the fake" in info.value.message
        # The `bestmove 1@r9c9` that followed the error answers nothing: not this play...
        assert engine.play([Placement(1, 1, 1)]).board.count("#") == 1
        engine.position(pieces=[1])
        # ... nor this go.
        assert engine.go(movetime=50).placements == [Placement(1, 1, 1)]
        assert list(engine.stray_lines) == [("go movetime 50", "bestmove 1@r9c9")]


def test_error_after_a_bestmove_is_not_blamed_on_the_next_request():
    with BlockudokuEngine(fake_command("blockudoku", "--bestmove-then-error")) as engine:
        engine.position(pieces=[1])
        assert engine.go(movetime=50).placements == [Placement(1, 1, 1)]
        engine.isready()  # the stray error is not this ping's
        engine.position(pieces=[1, 2])  # nor this position's
        assert engine.go(movetime=50).placements == [Placement(1, 1, 1), Placement(2, 1, 2)]
        assert list(engine.stray_lines) == [("go movetime 50", "error a second answer from the fake")]


def test_errors_still_reach_the_request_that_caused_them():
    # The sync point before each request does not swallow the request's own error.
    with BlockudokuEngine(fake_command("blockudoku", "--bestmove-then-error")) as engine:
        engine.position(pieces=[1])
        engine.go(movetime=50)
        with pytest.raises(EngineError) as info:
            engine.setoption("NoSuchOption", 1)
        assert info.value.command == "setoption name NoSuchOption value 1"
        assert info.value.message == "unknown option"
        with pytest.raises(EngineError) as info:
            engine.play(["1@r1c1", "1@r5c5"])
        assert info.value.command == "play 1@r1c1 1@r5c5"
        assert info.value.message.startswith("illegal placement")
        assert len(engine.stray_lines) == 1


def test_wrong_protocol_is_refused():
    with pytest.raises(ProtocolViolation):
        SudokuEngine(fake_command("blockudoku"))


def test_go_infinite_stops_and_collects_proposals():
    with SudokuEngine(fake_command("sudoku")) as engine:
        engine.position(2, 2, "1.../..../..../....")
        seen = []
        result = engine.go(infinite=True, stop_after=0.2, on_propose=seen.append)
        assert result.move == SudokuMove(0, 1, 1)
        assert seen == result.proposals and len(seen) == 3


# --- the real engines ------------------------------------------------------------------------

def test_real_sudoku_agent():
    engine = real_engine("sudoku-agent", SudokuEngine)
    with engine:
        assert {"Threads", "Agent"} <= set(engine.options)
        engine.setoption("Threads", 1)
        engine.newgame()
        engine.position(2, 2, "1+.../..../..../....", mode="classic")
        result = engine.go(movetime=50)
        assert result.move is not None and result.proposals, result.lines
        reply = engine.play(result.move)
        assert reply.outcome in ("placed", "taboo") and reply.turn == 1
        state = engine.state()
        assert (state.m, state.n, state.turn) == (2, 2, 1)
        with pytest.raises(EngineError):
            engine.play(SudokuMove(0, 0, 2))  # an occupied cell
        with pytest.raises(EngineError):
            engine.position(2, 2, "garbage")
        assert engine.state().values == state.values  # errors leave the state intact
        engine.position(3, 3, "/".join(["." * 9] * 9))
        t0 = time.monotonic()
        result = engine.go(infinite=True, stop_after=0.3)
        assert result.move is not None and time.monotonic() - t0 < 10


def test_real_sudoku_play_and_show_in_one_write():
    """`play_and_show` sends `play` and `show` in one write, answers what `play` then `state`
    would, and after a refused move leaves the engine in step with the position unchanged."""
    engine = real_engine("sudoku-agent", SudokuEngine)
    writes = []
    with engine:
        engine.position(2, 2, "1+.../..../..../....", mode="rows")
        real_write = engine._write
        engine._write = lambda lines: (writes.append(list(lines)), real_write(lines))[1]
        reply, state = engine.play_and_show(SudokuMove(3, 1, 2))
        assert writes == [["isready", "play 3,1=2", "show", "isready"]]
        assert (reply.outcome, reply.points, reply.turn) == ("placed", 0, 1)  # player 2 played
        assert state.values[3][1] == 2 and state.turn == 1 and state == engine.state()
        with pytest.raises(EngineError, match="occupied|filled"):
            engine.play_and_show(SudokuMove(0, 0, 2))
        assert engine.state() == state
        move = engine.go(movetime=20).move
        reply, after = engine.play_and_show(move)
        assert reply.move == move and after.turn == 2 and after == engine.state()


def test_real_blockudoku():
    engine = real_engine("blockudoku", BlockudokuEngine)
    with engine:
        assert {"Threads", "Scoring", "Agent"} <= set(engine.options)
        engine.position(pieces=[1, 2, 3])
        result = engine.go(movetime=50)
        assert not result.lost and len(result.placements) == 3
        state = engine.play(result.placements)
        assert all(p is None for p in state.pieces) and state.board.count("#") == 1 + 2 + 2
        # A play reply, fed back as a position, continues the game with the same slot numbers.
        engine.position(pieces=[1, 2, 3], score=3)
        half = engine.play(["2@r8c1"])
        assert half.pieces == ["1", None, "3"]
        engine.position(half.board, half.pieces, half.score, half.streak)
        rest = engine.go()
        assert sorted(p.slot for p in rest.placements) == [1, 3]
        assert engine.play(rest.placements).score > half.score
        engine.position(board="#" * 80 + ".", pieces=[28])
        assert engine.go(movetime=20).lost
        with pytest.raises(EngineError):
            engine.play(["1@r1c1"])


# --- bounded waits and memory: an engine that stops reading, floods, or is stopped -----------

# An engine that answers the handshake and `isready`, then, on `flood`, prints one line of
# `size` bytes (endless when 0) and on `deaf` stops reading its input for good.
MISBEHAVING = r"""
import sys, time
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    cmd = line.split()
    if cmd[:1] == [b"hello"]:
        out.write(b"id name misbehaving\nprotocol blockudoku 1\nhello ok\n")
    elif cmd[:1] == [b"isready"]:
        out.write(b"readyok\n")
    elif cmd[:1] == [b"flood"]:
        size = int(cmd[1])
        chunk = b"x" * 65536
        sent = 0
        while size == 0 or sent < size:
            out.write(chunk); sent += len(chunk)
        out.write(b"\nreadyok\n")
    elif cmd[:1] == [b"deaf"]:
        time.sleep(60)
    out.flush()
"""


def misbehaving(**kw):
    return BlockudokuEngine([sys.executable, "-c", MISBEHAVING], **kw)


def run_bounded(call, seconds):
    """Runs `call` on a thread; (its exception or result, whether it ended within `seconds`)."""
    import threading
    box = {}

    def target():
        try:
            box["result"] = call()
        except BaseException as err:  # noqa: BLE001 - handed to the test
            box["result"] = err
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    return box.get("result"), not thread.is_alive()


def test_a_write_to_an_engine_that_stopped_reading_times_out():
    """A command larger than the pipe (64 KB) to an engine that reads no more: the write gives
    up after write_timeout, the engine is killed, and the caller gets EngineTimeout."""
    engine = misbehaving(write_timeout=0.5)
    engine.send("deaf")
    result, ended = run_bounded(lambda: engine.command("position " + "x" * 300_000), 8)
    try:
        assert ended, "the write blocked"
        assert isinstance(result, EngineTimeout), result
        assert not engine.alive
    finally:
        engine.kill()


@pytest.mark.parametrize("size", [3 << 20, 0])
def test_an_engine_line_over_the_cap_is_refused_not_buffered(size):
    """A line of 3 MiB, or one that never ends: the driver holds at most max_line_bytes of it,
    kills the engine and the waiting call raises ProtocolViolation; later calls EngineDied."""
    engine = misbehaving()
    result, ended = run_bounded(lambda: engine.request("flood " + str(size), lambda l: l == "readyok"), 8)
    try:
        assert ended, "the flood was read without end"
        assert isinstance(result, ProtocolViolation), result
        assert "longer than" in str(result)
        with pytest.raises(EngineDied):
            engine.isready()
    finally:
        engine.kill()


def test_go_to_a_stopped_engine_fails_after_movetime_and_margin():
    """A SIGSTOPped engine: `go movetime 100` gives up after 0.1 s plus the margin (plus the
    stop grace), not after the 10 s start-up timeout."""
    import os
    import signal
    engine = BlockudokuEngine(fake_command("blockudoku"), margin=0.5)
    engine.stop_grace = 0.3
    engine.position(pieces=[1])
    os.kill(engine.proc.pid, signal.SIGSTOP)
    start = time.monotonic()
    try:
        with pytest.raises(EngineTimeout):
            engine.go(movetime=100)
        assert time.monotonic() - start < 5
    finally:
        engine.kill()


def test_a_position_that_cannot_be_written_is_an_engine_error():
    """What cannot even be a `position` line is refused as EngineError (the documented error),
    nothing sent; the engine stays in step."""
    with BlockudokuEngine(fake_command("blockudoku")) as engine:
        for board, pieces in (("#.#", [1]), ("." * 81, [1, 2, 3, 4]), ("x" * 81, [1])):
            with pytest.raises(EngineError) as info:
                engine.position(board, pieces)
            assert info.value.command == "position"
        engine.position(pieces=[1])
    with SudokuEngine(fake_command("sudoku")) as engine:
        for args, kwargs in ((("4x", "...."), {}), ((2, 2, "1.../..../..../...."), {"mode": "diagonal"}),
                             ((2, 2, "1.../..../..../...."), {"turn": 3})):
            with pytest.raises(EngineError):
                engine.position(*args, **kwargs)
        engine.isready()


def test_position_the_engine_holds_is_not_sent_again():
    """After `play`, the position it answered is the engine's: `position` of it sends nothing;
    any other position, or a command that may change it, is sent."""
    with BlockudokuEngine(fake_command("blockudoku")) as engine:
        engine.position(pieces=[1, 2, 3])
        state = engine.play(["1@r1c1"])
        engine.transcript.clear()
        engine.position(state.board, state.pieces, state.score, state.streak)
        assert not [l for l in engine.transcript if l.startswith("> position")]
        engine.newgame()
        engine.position(state.board, state.pieces, state.score, state.streak)
        assert len([l for l in engine.transcript if l.startswith("> position")]) == 1
        engine.position(state.board, state.pieces, state.score, state.streak)
        assert len([l for l in engine.transcript if l.startswith("> position")]) == 1
        engine.command("position empty pieces 5")  # set by hand: no longer known
        engine.position(state.board, state.pieces, state.score, state.streak)
        assert len([l for l in engine.transcript if l.startswith("> position")]) == 3
