"""The Blockudoku window's analysis board: an edit mode for advice on any position. Cells are
clicked or dragged, tray slots filled from the palette of the catalogue's pieces, or a
`position` line pasted; "Analyse" asks the engine's `analyse` (protocol/blockudoku.md) and the
panel lists its lines, the chosen one drawn on the board placement by placement.
`AnalysisBoard` is mixed into `BlockudokuApp` (window.py).
"""
from __future__ import annotations

import tkinter as tk
from typing import List, Optional, Tuple

from ... import BlockudokuEngine, EngineProblem, Piece
from ..layout import Flow
from .lines import LinesPanel, line_row
from .canvas import COLOURS
from .model import Game

PALETTE_CELL = 5  # palette pieces: cells of this many pixels, each piece in a box of 28
PALETTE_BOX, PALETTE_COLUMNS = 28, 10


class AnalysisBoard:
    """The analysis board: its controls, the position edited, the engine's lines. Reads of the
    window's state, set by the parts that own it: `analysis_button`,
    `catalogue`, `controller`, `engine_button`, `game_buttons`, `hint_button`,
    `piece_ids`, `settings`, `settings_row`, `undo_button`."""

    def build_analysis_frame(self, root: tk.Misc) -> None:
        """The analysis board's controls, palette and panel (shown in analysis mode only)."""
        f = self.analysis_frame = tk.Frame(root, bd=1, relief="groove")
        top = tk.Frame(f)
        top.pack(fill="x", padx=4, pady=(2, 0))
        tk.Label(top, text="Analysis board", font=("Helvetica", 10, "bold")).pack(side="left")
        self.leave_button = tk.Button(top, text="Back to the game", command=self.leave_analysis)
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
        rows = (len(self.piece_ids) + PALETTE_COLUMNS - 1) // PALETTE_COLUMNS
        self.palette = tk.Canvas(f, width=PALETTE_COLUMNS * PALETTE_BOX, height=rows * PALETTE_BOX, bg="white",
                                 highlightthickness=0)
        self.palette.pack(pady=2)
        self.palette.bind("<ButtonPress-1>", self.on_palette)
        self.draw_palette()

    def draw_palette(self) -> None:
        p = self.palette
        for k, pid in enumerate(self.piece_ids):
            piece = self.catalogue[pid]
            bx, by = (k % PALETTE_COLUMNS) * PALETTE_BOX, (k // PALETTE_COLUMNS) * PALETTE_BOX
            p.create_rectangle(bx + 1, by + 1, bx + PALETTE_BOX - 1, by + PALETTE_BOX - 1, outline=COLOURS["grid"],
                               fill="white", tags=("palette", f"pal{pid}"))
            x0 = bx + (PALETTE_BOX - piece.width * PALETTE_CELL) // 2
            y0 = by + (PALETTE_BOX - piece.height * PALETTE_CELL) // 2
            for r, col in piece.cells:
                x, y = x0 + col * PALETTE_CELL, y0 + r * PALETTE_CELL
                p.create_rectangle(x, y, x + PALETTE_CELL, y + PALETTE_CELL, fill=COLOURS["piece"], outline="white",
                                   tags=("palette", f"pal{pid}"))

    def palette_pixel(self, pid: int) -> Tuple[int, int]:
        k = self.piece_ids.index(pid)
        return (k % PALETTE_COLUMNS) * PALETTE_BOX + PALETTE_BOX // 2, (k // PALETTE_COLUMNS) * PALETTE_BOX + PALETTE_BOX // 2

    def on_palette(self, event) -> None:
        k = (event.y // PALETTE_BOX) * PALETTE_COLUMNS + event.x // PALETTE_BOX
        if 0 <= event.x < PALETTE_COLUMNS * PALETTE_BOX and 0 <= k < len(self.piece_ids):
            self.set_slot(self.selected_slot, self.piece_ids[k])

    def set_slot(self, slot: int, pid: Optional[int]) -> None:
        """Puts catalogue piece `pid` in tray slot `slot` (0-2); the next slot is selected."""
        self.game.hand[slot] = pid
        self.selected_slot = (slot + 1) % 3
        self.position_edited()
        # The status line follows the selection to the next slot.
        self.status(f"slot {slot + 1}: {'piece ' + str(pid) if pid is not None else 'empty'}; slot "
                    f"{self.selected_slot + 1} selected: pick its piece in the palette (right-click empties it)")

    def toggle_analysis(self) -> None:
        if self.analysing:
            self.leave_analysis()
        else:
            self.enter_analysis()

    def enter_analysis(self) -> None:
        """The analysis board, starting from the position on screen (a game or a replay)."""
        if self.analysing:
            return
        self.stop_engine()
        self.game_before = Game(self.game.board, list(self.game.hand), self.game.score, self.game.streak,
                                self.game.placed)
        self.analysing = True
        self.analysis_button.config(text="Game")
        for w in (self.engine_button, self.hint_button, self.undo_button):
            w.config(state="disabled")
        self.edit_score_var.set(str(self.game.score))
        self.edit_streak_var.set(str(self.game.streak))
        self.selected_slot = next((s for s in range(3) if self.game.hand[s] is None), 0)
        # The game's own buttons give way to the analysis board's (they do not apply there).
        self.game_buttons.pack_forget()
        self.analysis_frame.pack(side="top", fill="x", pady=(4, 4))
        self.position_edited()
        self.status("analysis board: click or drag cells, pick a tray slot then a piece, Analyse")

    def leave_analysis(self) -> None:
        """Back to the game as it was before the analysis board."""
        if not self.analysing:
            return
        self.analysing = False
        self.analysis_frame.pack_forget()
        self.game_buttons.pack(fill="x", pady=(0, 2), before=self.settings_row)
        self.analysis_button.config(text="Analysis")
        for w in (self.engine_button, self.hint_button, self.undo_button):
            w.config(state="normal")
        if self.game_before is not None:
            self.game = self.game_before
            self.game_before = None
        self.hint, self.analysis = [], []
        self.line_at, self.shown_board, self.shown_played = None, None, set()
        self.after_change()
        self.status("back to the game")

    def edit_press(self, x: float, y: float) -> None:
        cell = self.board_cell_at(x, y)
        if cell is not None:
            k = cell[0] * 9 + cell[1]
            self.paint = "." if self.game.board[k] == "#" else "#"
            self.paint_cell(k)
            return
        slot = self.tray_slot_at(x, y)
        if slot is not None:
            self.selected_slot = slot
            self.redraw()
            self.status(f"slot {slot + 1} selected: pick its piece in the palette (right-click empties it)")

    def edit_motion(self, x: float, y: float) -> None:
        cell = self.board_cell_at(x, y)
        if self.paint is not None and cell is not None:
            self.paint_cell(cell[0] * 9 + cell[1])

    def paint_cell(self, k: int) -> None:
        if self.game.board[k] != self.paint:
            b = self.game.board
            self.game.board = b[:k] + self.paint + b[k + 1:]
            self.position_edited()

    def clear_board(self) -> None:
        self.game.board = "." * 81
        self.position_edited()

    def read_score_streak(self) -> Optional[Tuple[int, int]]:
        try:
            score, streak = int(self.edit_score_var.get()), int(self.edit_streak_var.get())
            if score < 0 or streak < 0:
                raise ValueError
        except ValueError:
            self.show_error("Score and streak must be whole numbers, 0 or more.")
            return None
        return score, streak

    def position_edited(self) -> None:
        """The edited position changed: the last answer no longer holds."""
        self.hint, self.analysis = [], []
        self.line_at, self.shown_board, self.shown_played = None, None, set()
        self.line_step_var.set("")
        self.panel.delete(0, "end")
        self.analysis_title.set("")
        self.fits = [True, True, True]
        self.position_var.set(self.position_text())
        self.redraw()

    def position_text(self) -> str:
        pieces = self.game.hand if any(p is not None for p in self.game.hand) else [1]
        return BlockudokuEngine.position_line(self.game.board, pieces, self.game.score, self.game.streak)

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
                self.show_error(f"Not a position: {err}")
                return
            self.game.board = state.board
            self.game.hand = (hand + [None, None, None])[:3]
            self.game.score, self.game.streak = state.score, state.streak
            self.edit_score_var.set(str(state.score))
            self.edit_streak_var.set(str(state.streak))
            self.position_edited()

        def refused(err: BaseException) -> None:
            self.engine_refused(err, lambda refusal: self.show_error(f"The engine refuses that position: {refusal.message}"))

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
        self.game.score, self.game.streak = numbers
        if not any(p is not None for p in self.game.hand):
            self.show_error("The hand is empty: pick a tray slot, then a piece in the palette.")
            return
        try:
            lines = int(self.lines_var.get())
        except ValueError:
            lines = 3
        board, hand, score, streak, movetime = (self.game.board, self.specs(self.game.hand), self.game.score,
                                                self.game.streak, self.settings.movetime())

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
            self.engine_refused(err, lambda refusal: self.show_error(f"The engine refuses: {refusal.message}"))

        def answered(result) -> None:
            self.analyse_button.config(text="Analyse")
            if self.analysing and (self.game.board, self.game.hand) == (board, hand):
                self.analysis, self.analysis_boards = result
                self.show_analysis()

        self.analyse_button.config(text="Stop")
        self.status("analysing...")
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
            self.hint = []
            self.panel.insert("end", "the hand cannot be placed: the game ends here")
            self.status("no line places the hand")
            self.redraw()
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
        self.shown_board = self.game.board if k == 0 else self.analysis_boards[i][k - 1]
        self.hint = [(line.placements[k].slot - 1, line.placements[k])] if k < n else []
        self.shown_played = {p.slot - 1 for p in line.placements[:k]}
        self.line_step_var.set(f"placement {k + 1} of {n}" if k < n else f"after all {n}")
        self.status(f"line {i + 1}: " + ", ".join(f"piece {p.slot} at r{p.row}c{p.col}" for p in line.placements)
                    + f"; next hand dead {line.dead}/{line.deals} = {100 * line.dead_chance:.3f}%,"
                    f" {line.points} points")
        self.redraw()
