"""The Blockudoku window's analysis board: an edit mode for advice on any position. Cells are
clicked or dragged, tray slots filled from the palette of the catalogue's pieces, or a
`position` line pasted; "Analyse" asks the engine's `analyse` (protocol/blockudoku.md) and the
panel lists its lines, the chosen one drawn on the board placement by placement. It edits the
`Screen` (model.py) and has the canvas (canvas.py) draw it; the engine is asked through the
controller (controller.py).
"""
from __future__ import annotations

import tkinter as tk
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ... import BlockudokuEngine, EngineProblem, Piece
from ...errors import EngineError
from ..layout import Flow
from .lines import LinesPanel, line_row
from .canvas import BoardCanvas
from .controller import EngineController
from .game import specs
from .model import Screen
from .palette import Palette
from .settings import SettingsRow

@dataclass
class AnalysisHooks:
    """What the analysis board needs of the window, each one function."""

    status: Callable[[str], None]
    show_error: Callable[[str], None]
    refused: Callable[[BaseException, Callable[[EngineError], None]], None]  # the engine's error, or a failure
    after_change: Callable[[], None]  # back to the game: redraw it and ask which pieces fit
    show_board: Callable[[bool], None]  # the analysis board's controls in the panel, or the game's


class AnalysisBoard:
    """The analysis board of `screen` in `parent` (its frame, `frame`, shown by the window), with
    the pieces of `catalogue`: its controls, the position edited, the engine's lines (asked
    through `controller` with the choices of `settings`), drawn on `canvas`."""

    def __init__(self, parent: tk.Misc, screen: Screen, catalogue: Dict[int, Piece], settings: SettingsRow,
                 controller: EngineController, canvas: BoardCanvas, hooks: AnalysisHooks):
        self.screen, self.catalogue, self.settings, self.controller = screen, catalogue, settings, controller
        self.canvas, self.hooks = canvas, hooks
        self.paint: Optional[str] = None  # "#" or "." while a drag fills or empties cells
        self.analysis: list = []  # the engine's last answer
        self.analysis_boards: List[List[str]] = []  # each line's boards, placement by placement
        self.line_at: Optional[Tuple[int, int]] = None  # the line shown: (line, placements made)
        self.build(parent)

    def build(self, parent: tk.Misc) -> None:
        """The analysis board's controls, palette and panel (shown in analysis mode only)."""
        f = self.frame = tk.Frame(parent, bd=1, relief="groove")
        top = tk.Frame(f)
        top.pack(fill="x", padx=4, pady=(2, 0))
        tk.Label(top, text="Analysis board", font=("Helvetica", 10, "bold")).pack(side="left")
        self.leave_button = tk.Button(top, text="Back to the game", command=self.leave)
        self.leave_button.pack(side="right")
        # The lines first: they are what Analyse is for, so they stay on screen.
        self.analysis_title = tk.StringVar(value="")
        tk.Label(f, textvariable=self.analysis_title, anchor="w").pack(fill="x", padx=4)
        self.lines_panel = LinesPanel(f, self.show_analysis_line)
        self.panel = self.lines_panel.listbox
        stepper = tk.Frame(f)
        stepper.pack(fill="x", padx=4)
        tk.Button(stepper, text="<", width=2, command=lambda: self.step_line(-1)).pack(side="left")
        tk.Button(stepper, text=">", width=2, command=lambda: self.step_line(1)).pack(side="left")
        self.line_step_var = tk.StringVar(value="")
        tk.Label(stepper, textvariable=self.line_step_var, anchor="w").pack(side="left", padx=4)
        self.build_fields(f)
        self.palette = Palette(f, self.catalogue, lambda pid: self.set_slot(self.screen.selected_slot, pid))
        self.palette.canvas.pack(pady=2)

    def build_fields(self, f: tk.Frame) -> None:
        """Score, Streak, Lines, Analyse, Clear; the position line and Set."""
        row1 = Flow(f)
        row1.pack(fill="x", padx=4, pady=2)
        self.edit_score_var = tk.StringVar(value="0")
        self.edit_streak_var = tk.StringVar(value="0")
        self.lines_var = tk.StringVar(value="3")
        pairs = []
        for text, var, width in (("Score", self.edit_score_var, 6), ("Streak", self.edit_streak_var, 3)):
            pair = tk.Frame(row1)
            tk.Label(pair, text=text).pack(side="left")
            tk.Entry(pair, textvariable=var, width=width).pack(side="left", padx=(2, 0))
            pairs.append(pair)
        pair = tk.Frame(row1)
        tk.Label(pair, text="Lines").pack(side="left")
        tk.Spinbox(pair, from_=1, to=8, textvariable=self.lines_var, width=2).pack(side="left", padx=(2, 0))
        pairs.append(pair)
        self.analyse_button = tk.Button(row1, text="Analyse", width=7, command=self.analyse)
        pairs += [self.analyse_button, tk.Button(row1, text="Clear", command=self.clear_board)]
        row1.add(*pairs)
        row2 = tk.Frame(f)
        row2.pack(fill="x", padx=4, pady=2)
        tk.Label(row2, text="Position").pack(side="left")
        self.position_var = tk.StringVar(value="")
        entry = tk.Entry(row2, textvariable=self.position_var, width=10)
        entry.pack(side="left", fill="x", expand=True, padx=2)
        entry.bind("<Return>", lambda _e: self.paste_position())
        tk.Button(row2, text="Set", command=self.paste_position).pack(side="left")

    def set_slot(self, slot: int, pid: Optional[int]) -> None:
        """Puts catalogue piece `pid` in tray slot `slot` (0-2); the next slot is selected."""
        s = self.screen
        s.game.hand[slot] = pid
        s.selected_slot = (slot + 1) % 3
        self.position_edited()
        # The status line follows the selection to the next slot.
        self.hooks.status(f"slot {slot + 1}: {'piece ' + str(pid) if pid is not None else 'empty'}; slot "
                          f"{s.selected_slot + 1} selected: pick its piece in the palette (right-click empties it)")

    def toggle(self) -> None:
        if self.screen.analysing:
            self.leave()
        else:
            self.enter()

    def enter(self) -> None:
        """The analysis board, starting from the position on screen (a game or a replay)."""
        s = self.screen
        if s.analysing:
            return
        self.controller.stop_play()
        s.game_before = s.game.copy()
        s.analysing = True
        self.edit_score_var.set(str(s.game.score))
        self.edit_streak_var.set(str(s.game.streak))
        s.selected_slot = next((k for k in range(3) if s.game.hand[k] is None), 0)
        # The game's own buttons give way to the analysis board's (they do not apply there).
        self.hooks.show_board(True)
        self.position_edited()
        self.hooks.status("analysis board: click or drag cells, pick a tray slot then a piece, Analyse")

    def leave(self) -> None:
        """Back to the game as it was before the analysis board."""
        s = self.screen
        if not s.analysing:
            return
        s.analysing = False
        self.hooks.show_board(False)
        if s.game_before is not None:
            s.game, s.game_before = s.game_before, None
        self.analysis, self.line_at = [], None
        s.clear_line()
        self.hooks.after_change()
        self.hooks.status("back to the game")

    # --- the canvas's edits (canvas.py hands them here) ---------------------------------------

    def edit_press(self, cell: Optional[Tuple[int, int]], slot: Optional[int]) -> None:
        """A press on a board cell fills or empties it (and a drag from it paints); on a tray
        slot selects it."""
        s = self.screen
        if cell is not None:
            k = cell[0] * 9 + cell[1]
            self.paint = "." if s.game.board[k] == "#" else "#"
            self.paint_cell(k)
        elif slot is not None:
            s.selected_slot = slot
            self.canvas.redraw()
            self.hooks.status(f"slot {slot + 1} selected: pick its piece in the palette (right-click empties it)")

    def edit_drag(self, cell: Tuple[int, int]) -> None:
        if self.paint is not None:
            self.paint_cell(cell[0] * 9 + cell[1])

    def edit_release(self) -> None:
        self.paint = None

    def edit_empty(self, slot: int) -> None:
        """Right click on a tray slot: empties it."""
        self.screen.game.hand[slot] = None
        self.screen.selected_slot = slot
        self.position_edited()

    def paint_cell(self, k: int) -> None:
        g = self.screen.game
        if g.board[k] != self.paint:
            g.board = g.board[:k] + self.paint + g.board[k + 1:]
            self.position_edited()

    def clear_board(self) -> None:
        self.screen.game.board = "." * 81
        self.position_edited()

    def read_score_streak(self) -> Optional[Tuple[int, int]]:
        try:
            score, streak = int(self.edit_score_var.get()), int(self.edit_streak_var.get())
            if score < 0 or streak < 0:
                raise ValueError
        except ValueError:
            self.hooks.show_error("Score and streak must be whole numbers, 0 or more.")
            return None
        return score, streak

    def position_edited(self) -> None:
        """The edited position changed: the last answer no longer holds."""
        self.analysis, self.line_at = [], None
        self.screen.clear_line()
        self.line_step_var.set("")
        self.panel.delete(0, "end")
        self.analysis_title.set("")
        self.screen.fits = [True, True, True]
        self.position_var.set(self.position_text())
        self.canvas.redraw()

    def position_text(self) -> str:
        g = self.screen.game
        pieces = g.hand if any(p is not None for p in g.hand) else [1]
        return BlockudokuEngine.position_line(g.board, pieces, g.score, g.streak)

    def paste_position(self) -> None:
        """Sets the board, hand, score and streak from a `position` line (the engine checks it)."""
        text = self.position_var.get().strip()
        line = text if text.startswith("position") else "position " + text

        def accepted(_) -> None:
            try:
                state = BlockudokuEngine.parse_state(line)
                by_shape = {p.shape: pid for pid, p in self.catalogue.items()}
                hand: List[Optional[int]] = []
                for tok in state.pieces:
                    if tok is None:
                        hand.append(None)
                    elif tok.isdigit() and int(tok) in self.catalogue:
                        hand.append(int(tok))
                    else:
                        shape = Piece.from_shape(tok).shape
                        if shape not in by_shape:
                            raise ValueError(f"piece {tok} is not one of the catalogue's")
                        hand.append(by_shape[shape])
            except (ValueError, EngineProblem) as err:
                self.hooks.show_error(f"Not a position: {err}")
                return
            g = self.screen.game
            g.board, g.hand = state.board, (hand + [None, None, None])[:3]
            g.score, g.streak = state.score, state.streak
            self.edit_score_var.set(str(state.score))
            self.edit_streak_var.set(str(state.streak))
            self.position_edited()

        def refused(err: BaseException) -> None:
            self.hooks.refused(err, lambda refusal: self.hooks.show_error(
                f"The engine refuses that position: {refusal.message}"))

        self.controller.ask(lambda engine: engine.command(line), accepted, refused)

    def analyse(self) -> None:
        """Sends the edited position and `analyse`; fills the panel and draws line 1. While
        it runs, the button stops it."""
        if self.controller.search_running:
            self.controller.stop_search()
            return
        numbers = self.read_score_streak()
        if numbers is None:
            return
        g = self.screen.game
        g.score, g.streak = numbers
        if not any(p is not None for p in g.hand):
            self.hooks.show_error("The hand is empty: pick a tray slot, then a piece in the palette.")
            return
        try:
            lines = int(self.lines_var.get())
        except ValueError:
            lines = 3
        board, hand, score, streak, movetime = (g.board, specs(self.catalogue, g.hand), g.score, g.streak,
                                                self.settings.movetime())

        def work(engine: BlockudokuEngine):
            # The whole tray, `-` for an empty slot: the answer's slots are the tray's.
            engine.position(board, hand, score, streak)
            answer = engine.analyse(movetime=movetime, lines=lines)
            # Each line placement by placement: the board after each one, with its clears.
            steps = []
            for line in answer:
                boards = []
                for k in range(1, len(line.placements) + 1):
                    engine.position(board, hand, score, streak)
                    boards.append(engine.play(line.placements[:k]).board)
                steps.append(boards)
            return answer, steps

        def refused(err: BaseException) -> None:
            self.analyse_button.config(text="Analyse")
            self.hooks.refused(err, lambda refusal: self.hooks.show_error(f"The engine refuses: {refusal.message}"))

        def answered(result) -> None:
            self.analyse_button.config(text="Analyse")
            s = self.screen
            if s.analysing and (s.game.board, specs(self.catalogue, s.game.hand)) == (board, hand):
                self.analysis, self.analysis_boards = result
                self.show_analysis()

        self.analyse_button.config(text="Stop")
        self.hooks.status("analysing...")
        self.controller.run_search(work, answered, refused)

    def show_analysis(self) -> None:
        """Fills the panel with the engine's lines and shows line 1."""
        self.position_var.set(self.position_text())
        self.panel.delete(0, "end")
        agent = self.settings.agent_var.get() or "engine"
        objective = self.settings.objective()
        ms = self.settings.movetime()
        self.analysis_title.set(f"{agent}" + (f", {objective}" if objective else "")
                                + (f", {ms} ms" if ms else ", bare") + f": {len(self.analysis)} line(s)")
        if not self.analysis:
            self.screen.hint = []
            self.panel.insert("end", "the hand cannot be placed: the game ends here")
            self.hooks.status("no line places the hand")
            self.canvas.redraw()
            return
        self.lines_panel.show([line_row(k, line) for k, line in enumerate(self.analysis, 1)])
        self.show_analysis_line()

    def show_analysis_line(self) -> None:
        """The line chosen in the panel, from its first placement (step through it with < >)."""
        chosen = self.panel.curselection()
        if not chosen or not self.analysis:
            return
        self.line_at = (chosen[0], 0)
        self.show_line_step()

    def step_line(self, delta: int) -> None:
        if self.line_at is None:
            return
        i, k = self.line_at
        self.line_at = (i, max(0, min(k + delta, len(self.analysis[i].placements))))
        self.show_line_step()

    def show_line_step(self) -> None:
        """The board before placement k+1 of the chosen line (after the earlier ones and their
        clears, as the engine played them), with that placement drawn in its slot's colour."""
        i, k = self.line_at
        line = self.analysis[i]
        n = len(line.placements)
        s = self.screen
        s.shown_board = s.game.board if k == 0 else self.analysis_boards[i][k - 1]
        s.hint = [(line.placements[k].slot - 1, line.placements[k])] if k < n else []
        s.shown_played = {p.slot - 1 for p in line.placements[:k]}
        self.line_step_var.set(f"placement {k + 1} of {n}" if k < n else f"after all {n}")
        self.hooks.status(f"line {i + 1}: " + ", ".join(f"piece {p.slot} at r{p.row}c{p.col}" for p in line.placements)
                          + f"; next hand dead {line.dead}/{line.deals} = {100 * line.dead_chance:.3f}%,"
                          f" {line.points} points")
        self.canvas.redraw()
