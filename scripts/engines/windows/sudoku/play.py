

"""The Competitive Sudoku window's play: moves through the referee's `play`, the agents' moves
and Hint (searches on the worker, the analysis panel following their `info` lines), each agent
the searches themselves are the engine controller's (controller.py). `GamePlay` is mixed into
`SudokuApp` (window.py).
"""
from __future__ import annotations

from tkinter import font as tkfont
from typing import Callable, Optional

from ... import EngineDied, SudokuEngine, SudokuMove, SudokuState
from ...record import Step
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


class GamePlay:
    """Moves, Hint and the agents' turns (asked of the engine controller), and the engine's
    supervision. Reads of the window's state, set by the parts that own it: `analysis_agent`,
    `analysis_label`, `analysis_var`, `closed`, `controller`, `dialogs`, `engine_dead`, `game`,
    `player_vars`, `root`."""

    # --- the engine controller (controller.py) and the supervision (../supervision.py) ----

    @property
    def engine(self) -> SudokuEngine:
        return self.controller.engine

    def set_engine(self, engine: SudokuEngine) -> None:  # a restarted engine (supervision)
        self.controller.engine = engine

    @property
    def thinking(self) -> bool:
        """A search (an agent's move or a hint) is running."""
        return self.controller.thinking

    @property
    def sessions(self) -> dict:
        return self.controller.sessions

    def on_engine_death(self, err: EngineDied) -> None:
        self.controller.cancel()  # a search of the dead engine has nothing more to say

    def resume_job(self) -> Callable[[SudokuEngine], None]:
        return self.controller.resume_job(self.game.setup, list(self.game.moves))

    def engine_resumed(self) -> None:
        self.refresh()  # and an agent to move goes on

    def cancel_search(self) -> None:
        """Stops a search in progress at once (`stop`); its answer is dropped when it comes."""
        self.controller.cancel()

    def stop_thinking(self) -> None:
        """Stop: the running search answers at once with what it has (a hint is shown, an
        agent's move played)."""
        if self.controller.stop():
            self.status("stopped: the engine answers with what it has")

    # --- moves -------------------------------------------------------------------------------

    def player_kind(self, player: int) -> str:
        return self.player_vars[player - 1].get()

    def human_to_move(self) -> bool:
        return self.state is not None and self.engine_dead is None and not self.game_over and self.player_kind(self.state.turn) == HUMAN

    def play(self, move: Optional[SudokuMove], searched: str = "") -> None:
        """Plays `move` (None: pass) through the referee's `play`, on the worker; the board and
        the move list follow when it answers."""
        if self.moving:
            return
        if self.controller.thinking and self.controller.search_kind == "hint":
            self.cancel_search()  # a move during a hint stops it, and is played at once
        player = self.state.turn if self.state is not None else 1
        self.moving = True

        def refused(err: BaseException) -> None:
            self.moving = False
            what = move_name(move) if move else "no pass"
            self.engine_refused(err, lambda refusal: self.status(f"{what}: {engine_reason(refusal.message)}"))

        def played(result) -> None:
            self.moving = False
            reply, state = result
            self.game.play(Step(player, move, reply.outcome == "taboo"))  # stepped back: a new line
            self.hint = None
            # The panel spoke of the position before this move (an agent's own search is kept).
            self.analysis_var.set(f"player {player}'s search:\n{searched}" if searched else NO_ANALYSIS)
            if reply.outcome == "placed":
                text = f"player {player}: {move_name(move)} placed, {reply.points} point{'s' if reply.points != 1 else ''}"
            elif reply.outcome == "taboo":
                text = f"player {player}: {move_name(move)} is taboo: the turn passes"
            else:
                text = f"player {player}: no playable cell, the turn passes"
            self.last_reply = reply.line
            self.selected = None
            self.state = state
            self.game_over = state.result is not None
            if reply.result is not None:
                self.game_over = True
                text += " - " + ("draw" if reply.result == "draw" else f"player {reply.result} wins")
            self.status(text)
            self.draw()
            if not self.game_over:
                self.maybe_agent_move()

        self.controller.play(move, played, refused)

    def maybe_agent_move(self) -> None:
        """Starts a search in the background when an agent is to move (at the game's end only)."""
        if self.closed or self.controller.thinking or self.moving or self.game_over or self.state is None or self.engine_dead is not None:
            return
        if self.dialogs.asking:
            return  # the question's Cancel calls this again
        if not self.game.at_end:
            return
        agent = self.player_kind(self.state.turn)
        if agent == HUMAN:
            return
        self.status(f"player {self.state.turn} ({agent}) is thinking...")
        self.search("move", agent)

    def show_hint(self) -> None:
        """The engine's move for the side to move in the position on the board, drawn on the
        board; the analysis panel follows the search."""
        if self.closed or self.state is None or self.engine_dead is not None:
            return
        if self.game_over:
            self.status("the game is over: no hint")
            return
        if self.controller.thinking:
            self.stop_thinking()  # the button reads Stop
            return
        self.hint = None
        self.status(f"analysing for player {self.state.turn}...")
        self.search("hint", self.analysis_agent)

    def search(self, kind: str, agent: str) -> None:
        """Asks the controller for a hint or an agent's move; the analysis panel follows it, and
        its answer is drawn (a hint) or played (a move)."""
        self.analysis_var.set(f"analysis ({agent}): searching...")

        def answered(result) -> None:
            if not result.infos:
                self.analysis_var.set("analysis: the agent reported no search lines")
            if kind == "hint":
                self.hint = result.move
                self.status(f"hint for player {self.state.turn}: " + (move_name(result.move) if result.move else "pass"))
                self.draw()
                return
            self.play(result.move, self.analysis_var.get() if result.infos else "")

        self.controller.search(kind, agent, (self.game.setup, list(self.game.moves), self.state.turn), self.movetime(),
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
            self.state = state
            self.game_over = state.result is not None
            self.draw()
            self.maybe_agent_move()

        self.controller.ask(lambda engine: engine.state(), fetched)
