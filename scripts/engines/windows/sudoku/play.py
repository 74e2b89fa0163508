"""The Competitive Sudoku window's play: moves through the referee's `play`, the agents' turns
and Hint (searches asked of the engine controller, controller.py), the analysis panel following
their `info` lines. `GamePlay` changes the `Screen` (model.py) from the engine's answers and has
the board (board.py) draw it.
"""
from __future__ import annotations

import tkinter as tk
from dataclasses import dataclass
from tkinter import font as tkfont
from typing import Callable, Optional

from ... import SudokuMove, SudokuState
from ...errors import EngineError
from ...record import Step
from .board import BoardView
from .controller import SudokuController
from .model import Screen
from .names import ANALYSIS_FONT, ANALYSIS_LINES, HUMAN, NO_ANALYSIS, engine_reason, move_name, pv_text


def wrapped_rows(font, text: str, width: int) -> int:
    """How many rows `text` takes wrapped word by word to `width` pixels in `font`."""
    rows, current = 1, ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and font.measure(candidate) > width:
            rows, current = rows + 1, word
        else:
            current = candidate
    return rows


@dataclass
class PlayHooks:
    """What the play needs of the window, each one function."""

    status: Callable[[str], None]
    refused: Callable[[BaseException, Callable[[EngineError], None]], None]  # the engine's error, or a failure
    player_kind: Callable[[int], str]  # "human" or the agent playing player 1 or 2
    movetime: Callable[[], int]  # the agents' ms a move
    usable: Callable[[], bool]  # the window is open and its engine alive
    asking: Callable[[], bool]  # a question is open: the agents wait for its answer


class GamePlay:
    """The moves of `screen`'s game through `controller`, drawn by `board`; the analysis panel
    is `analysis_var` shown in `analysis_label` (its width decides how much of a line shows);
    Hint searches with `analysis_agent`."""

    def __init__(self, root: tk.Misc, screen: Screen, controller: SudokuController, board: BoardView,
                 analysis_var: tk.StringVar, analysis_label: tk.Label, analysis_agent: str, hooks: PlayHooks):
        self.root, self.screen, self.controller, self.board = root, screen, controller, board
        self.analysis_var, self.analysis_label, self.analysis_agent = analysis_var, analysis_label, analysis_agent
        self.hooks = hooks

    def stop_thinking(self) -> None:
        """Stop: the running search answers at once with what it has (a hint is shown, an
        agent's move played)."""
        if self.controller.stop():
            self.hooks.status("stopped: the engine answers with what it has")

    # --- moves -------------------------------------------------------------------------------

    def human_to_move(self) -> bool:
        s = self.screen
        return (s.state is not None and self.hooks.usable() and not s.game_over
                and self.hooks.player_kind(s.state.turn) == HUMAN)

    def choose_value(self, value: int) -> None:
        """A value for the selected cell: the move is played."""
        if self.screen.selected is None or not self.human_to_move():
            return
        r, c = self.screen.selected
        self.play(SudokuMove(r, c, value))

    def pass_turn(self) -> None:
        if self.human_to_move():
            self.play(None)

    def play(self, move: Optional[SudokuMove], searched: str = "") -> None:
        """Plays `move` (None: pass) through the referee's `play`, on the worker; the board and
        the move list follow when it answers."""
        s, status = self.screen, self.hooks.status
        if s.moving:
            return
        if self.controller.thinking and self.controller.search_kind == "hint":
            self.controller.cancel()  # a move during a hint stops it, and is played at once
        player = s.state.turn if s.state is not None else 1
        s.moving = True

        def refused(err: BaseException) -> None:
            s.moving = False
            what = move_name(move) if move else "no pass"
            self.hooks.refused(err, lambda refusal: status(f"{what}: {engine_reason(refusal.message)}"))

        def played(result) -> None:
            s.moving = False
            reply, state = result
            s.game.play(Step(player, move, reply.outcome == "taboo"))  # stepped back: a new line
            s.hint = None
            # The panel spoke of the position before this move (an agent's own search is kept).
            self.analysis_var.set(f"player {player}'s search:\n{searched}" if searched else NO_ANALYSIS)
            if reply.outcome == "placed":
                text = f"player {player}: {move_name(move)} placed, {reply.points} point{'s' if reply.points != 1 else ''}"
            elif reply.outcome == "taboo":
                text = f"player {player}: {move_name(move)} is taboo: the turn passes"
            else:
                text = f"player {player}: no playable cell, the turn passes"
            s.last_reply = reply.line
            s.selected = None
            s.shows(state)
            if reply.result is not None:
                s.game_over = True
                text += " - " + ("draw" if reply.result == "draw" else f"player {reply.result} wins")
            status(text)
            self.board.draw()
            if not s.game_over:
                self.maybe_agent_move()

        self.controller.play(move, played, refused)

    def maybe_agent_move(self) -> None:
        """Starts a search in the background when an agent is to move (at the game's end only)."""
        s = self.screen
        if self.controller.thinking or s.moving or s.game_over or s.state is None or not self.hooks.usable():
            return
        if self.hooks.asking():
            return  # the question's Cancel calls this again
        if not s.game.at_end:
            return
        agent = self.hooks.player_kind(s.state.turn)
        if agent == HUMAN:
            return
        self.hooks.status(f"player {s.state.turn} ({agent}) is thinking...")
        self.search("move", agent)

    def show_hint(self) -> None:
        """The engine's move for the side to move in the position on the board, drawn on the
        board; the analysis panel follows the search."""
        s = self.screen
        if s.state is None or not self.hooks.usable():
            return
        if s.game_over:
            self.hooks.status("the game is over: no hint")
            return
        if self.controller.thinking:
            self.stop_thinking()  # the button reads Stop
            return
        s.hint = None
        self.hooks.status(f"analysing for player {s.state.turn}...")
        self.search("hint", self.analysis_agent)

    def search(self, kind: str, agent: str) -> None:
        """Asks the controller for a hint or an agent's move; the analysis panel follows it, and
        its answer is drawn (a hint) or played (a move)."""
        s = self.screen
        self.analysis_var.set(f"analysis ({agent}): searching...")

        def answered(result) -> None:
            if not result.infos:
                self.analysis_var.set("analysis: the agent reported no search lines")
            if kind == "hint":
                s.hint = result.move
                self.hooks.status(f"hint for player {s.state.turn}: " + (move_name(result.move) if result.move else "pass"))
                self.board.draw()
                return
            self.play(result.move, self.analysis_var.get() if result.infos else "")

        self.controller.search(kind, agent, (s.game.setup, list(s.game.moves), s.state.turn), self.hooks.movetime(),
                               answered)

    def show_info(self, info: dict) -> None:
        """The analysis panel from one `info` line: score (for the side to move), depth and nodes
        on one row, then the line on the rows left."""
        figures = []
        if "score" in info:
            figures.append(f"score {info['score']:+}" + (" (exact)" if info.get("exact") else ""))
        if "depth" in info:
            figures.append(f"depth {info['depth']}" + (f", {info['nodes']} nodes" if "nodes" in info else ""))
        lines = [", ".join(figures)] if figures else []
        if info.get("pv"):
            lines.append(self.fitted_line("line " + pv_text(info["pv"]), ANALYSIS_LINES - len(lines)))
        if lines:
            self.analysis_var.set("\n".join(lines))

    def fitted_line(self, text: str, rows: int) -> str:
        """`text` cut (between moves, ending in `...`) to what the analysis panel shows on
        `rows` rows, wrapped word by word as Tk wraps it."""
        font = tkfont.Font(root=self.root, font=ANALYSIS_FONT)
        width = int(self.analysis_label.cget("wraplength"))
        kept = text.split()
        while len(kept) > 1 and wrapped_rows(font, " ".join(kept) + (" ..." if len(kept) < len(text.split()) else ""),
                                             width) > rows:
            kept.pop()
        return " ".join(kept) + (" ..." if len(kept) < len(text.split()) else "")

    def refresh(self) -> None:
        """Asks the engine for the position (on the worker), then draws it."""
        def fetched(state: SudokuState) -> None:
            self.screen.shows(state)
            self.board.draw()
            self.maybe_agent_move()

        self.controller.ask(lambda engine: engine.state(), fetched)
