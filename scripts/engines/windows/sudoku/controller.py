"""The Competitive Sudoku window's engine controller: the one part of the window that asks the
engines to search. Hint searches on the referee; an agent player's move on that player's own
engine (`PlayerSession`, made the first time it moves). Any search stops at once (Stop: it
answers with what it has; cancelled: its answer is dropped). The calls go through the window's
`EngineCalls` (off the Tk thread); the controller touches no widget: what it finds goes to the
functions of its `Table`, which the window provides.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ... import EngineError, SudokuEngine, SudokuMove, SudokuState
from ...record import Step
from ..engine_calls import EngineCalls, Search, Wait
from ..supervision import end_engines


def apply_setup(engine: SudokuEngine, setup: Tuple[str, str]) -> None:
    """Gives `engine` the game's start (on the worker): a `position` line or a board file."""
    kind, text = setup
    if kind == "file":
        engine.position_file(text)
    else:
        engine.command(text)


def replay(engine: SudokuEngine, setup: Tuple[str, str], moves: List[Optional[SudokuMove]]) -> None:
    """Puts `engine` in the position after `moves` from `setup`, through its own `play`."""
    engine.newgame()
    apply_setup(engine, setup)
    for move in moves:
        engine.play(move) if move is not None else engine.play_none()


class PlayerSession:
    """An agent player's own engine: its Agent is set once (and again only when the choice
    changes), and the game's moves are played into it with `play`, so its table and search tree
    stay from move to move. Used on the worker thread only."""

    def __init__(self, engine: SudokuEngine, agent: str):
        self.engine = engine
        self.agent = agent
        self.setup: Optional[Tuple[str, str]] = None
        self.moves: List[Optional[SudokuMove]] = []

    @staticmethod
    def start(referee: SudokuEngine, agent: str, on_start: Optional[Callable[[SudokuEngine], None]] = None
              ) -> "PlayerSession":
        """A new process of the referee's engine, with its options and this agent (`on_start`
        is told of the process before its handshake: a front end may end a slow start)."""
        options = {**referee.settings, "Agent": agent}
        engine = type(referee)(referee.argv, startup_timeout=referee.startup_timeout, margin=referee.margin,
                               cwd=referee.cwd, options=options, on_start=on_start)
        return PlayerSession(engine, agent)

    def sync(self, setup: Tuple[str, str], moves: List[Optional[SudokuMove]], agent: str) -> None:
        """Brings the session to the game on screen: the new moves only, when it follows it."""
        if agent != self.agent:
            self.engine.setoption("Agent", agent)
            self.agent = agent
        if setup == self.setup and moves[:len(self.moves)] == self.moves:
            for move in moves[len(self.moves):]:
                self.engine.play(move) if move is not None else self.engine.play_none()
        else:
            replay(self.engine, setup, moves)
        self.setup, self.moves = setup, list(moves)


class LoadStopped(Exception):
    """A record's load through the referee stopped before its end (`SudokuController.cancel`)."""


@dataclass
class Table:
    """What the controller needs of the window, each one function."""

    on_thinking: Callable[[bool], None]  # a search started (Hint reads Stop) or ended
    show_info: Callable[[dict], None]  # an `info` line of the running search
    failed: Callable[[BaseException], None]  # an engine call that went wrong (supervision)


class SudokuController:
    """The referee `engine` (replaced on a restart: the supervision sets it) and the agent
    players' engines, asked through `calls`."""

    def __init__(self, engine: SudokuEngine, calls: EngineCalls, table: Table):
        self.engine, self.calls, self.table = engine, calls, table
        self.thinking = False  # a search (an agent's move or a hint) is running
        self.search_kind = ""
        self.running: Optional[Search] = None  # the running search (Stop stops it)
        self.generation = 0  # bumps on every cancel, so a stale search result is dropped
        # One engine per agent player (PlayerSession), made when the player first moves.
        self.sessions: Dict[int, PlayerSession] = {}
        self.loading: Optional[threading.Event] = None  # set: the record being loaded stops
        self.closed = False

    # --- the referee's game --------------------------------------------------------------

    def ask(self, work: Callable[[SudokuEngine], object], done: Optional[Callable[[object], None]] = None,
            failed: Optional[Callable[[BaseException], None]] = None, wait: Optional[Wait] = None) -> None:
        """An engine call: `work(referee)` on the worker, given the referee of that moment (a
        restarted one too); its value goes to `done`, its error to `failed` (by default to the
        window's supervision). It waits on `wait` (or a wait of its own): a referee silent on it
        is offered to Stop (`EngineCalls.stuck`), and Stop ends it."""
        self.calls.call(lambda: work(self.calls.waiting_on(self.engine)), done, failed, wait)

    def start(self, setup: Tuple[str, str], done: Callable[[SudokuState], None],
              failed: Callable[[BaseException], None], wait: Optional[Wait] = None) -> None:
        """A new game from `setup`; `done` gets its first position. `wait` stops it (it ends
        an engine that does not answer)."""
        def work(engine: SudokuEngine) -> SudokuState:
            engine.newgame()
            apply_setup(engine, setup)
            return engine.state()

        self.ask(work, done, failed, wait)

    def play(self, move: Optional[SudokuMove], done: Callable[[object], None],
             failed: Callable[[BaseException], None]) -> None:
        """Plays `move` (None: pass); `done` gets (the referee's reply, the position after)."""
        def work(engine: SudokuEngine):
            return engine.play_and_show(move)

        self.ask(work, done, failed)

    def go_to(self, setup: Tuple[str, str], moves: List[Optional[SudokuMove]], done: Callable[[SudokuState], None],
              failed: Callable[[BaseException], None]) -> None:
        """Sets the referee to the position after `moves`; `done` gets it."""
        def work(engine: SudokuEngine) -> SudokuState:
            replay(engine, setup, moves)
            return engine.state()

        self.ask(work, done, failed)

    def load(self, setup: Tuple[str, str], steps: List[Step], done: Callable[[object], None]) -> None:
        """Plays a record's `steps` from `setup`; `done` gets (the first position, the steps
        played, the refusal that stopped them or None, the last position), unless `cancel`
        stopped the load first (at its next move)."""
        stop = self.loading = threading.Event()

        def work(engine: SudokuEngine):
            engine.newgame()
            apply_setup(engine, setup)
            first = engine.state()
            turn, played, problem = first.turn, [], None
            try:
                for step in steps:
                    if stop.is_set():
                        raise LoadStopped()
                    if step.player != turn:
                        raise EngineError(f"the record has player {step.player} moving, but player {turn} is to move")
                    reply = engine.play(step.move) if step.move is not None else engine.play_none()
                    turn = reply.turn
                    played.append(Step(step.player, step.move, reply.outcome == "taboo"))
            except EngineError as err:
                problem = err
            return first, played, problem, engine.state()

        def failed(err: BaseException) -> None:
            if not isinstance(err, LoadStopped):
                self.table.failed(err)

        self.ask(work, lambda result: None if stop.is_set() else done(result), failed)

    # --- searches --------------------------------------------------------------------------

    def set_thinking(self, thinking: bool, kind: str = "") -> None:
        self.thinking, self.search_kind = thinking, kind
        if not thinking:
            self.running = None
        self.table.on_thinking(thinking)

    def cancel(self) -> None:
        """Stops a search in progress at once (`stop`), and a record's load at its next move;
        what they answer is dropped."""
        if self.loading is not None:
            self.loading.set()
            self.loading = None
        self.generation += 1
        if self.running is not None:
            self.running.stop()
        self.set_thinking(False)

    def stop(self) -> bool:
        """Stop: the running search answers at once with what it has; False when none runs."""
        if self.running is None:
            return False
        self.running.stop()
        return True

    def search(self, kind: str, agent: str, game: Tuple[Tuple[str, str], List[Optional[SudokuMove]], int],
               movetime: int, answered: Callable[[object], None]) -> None:
        """A search on the worker: a hint (`kind` "hint") on the referee, an agent's move
        ("move") on the session of `game`'s player to move (set-up, moves, player), told only
        the moves since its last search. `answered(result)` unless it was cancelled meanwhile."""
        self.set_thinking(True, kind)
        running = self.running = Search()
        generation = self.generation
        setup, moves, player = game
        session = self.sessions.get(player)

        def info(value: dict) -> None:
            if generation == self.generation:
                self.table.show_info(value)

        def work():
            nonlocal session
            engine = self.calls.waiting_on(self.engine)
            if kind == "move":
                if session is None:  # Stop while it starts ends it: Search.stop
                    session = PlayerSession.start(engine, agent, lambda new: running.wait.begin(new, starting=True))
                engine = self.calls.waiting_on(session.engine)
                session.sync(setup, moves, agent)
            return running.run(engine, lambda **kw: engine.go(
                movetime=movetime, on_info=lambda value: self.calls.post(info, value), **kw))

        def keep_session() -> None:
            if session is not None and kind == "move":
                if self.closed or not session.engine.alive:
                    session.engine.kill()
                    self.sessions.pop(player, None)
                else:
                    self.sessions[player] = session

        def failed(err: BaseException) -> None:
            keep_session()
            if generation == self.generation:
                self.set_thinking(False)
                self.table.failed(err)

        def done(result) -> None:
            keep_session()
            if generation == self.generation:  # else cancelled by a new game, a jump or a dead engine
                self.set_thinking(False)
                answered(result)

        self.calls.call(work, done, failed, running.wait)

    def resume_job(self, setup: Optional[Tuple[str, str]], moves: List[Optional[SudokuMove]]
                   ) -> Callable[[SudokuEngine], None]:
        """The game given to a restarted referee: the same set-up and moves, played through its
        own `play`. The players' sessions start afresh."""
        sessions, self.sessions = list(self.sessions.values()), {}

        def resume(engine: SudokuEngine) -> None:
            for session in sessions:
                session.engine.kill()
            if setup is not None:
                replay(engine, setup, moves)

        return resume

    def close(self) -> Optional[threading.Thread]:
        """The window is closed: ends the players' engines off the Tk thread (a session still
        searching is ended when its search returns). The thread that ends them, if any."""
        self.closed = True
        engines = [session.engine for session in self.sessions.values()]
        self.sessions = {}
        return end_engines(engines) if engines else None
