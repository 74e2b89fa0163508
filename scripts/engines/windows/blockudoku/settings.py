"""The Blockudoku window's settings row: Scoring, Seed, Engine ms, and one box for each choice
the engine offers (Agent, Objective). A view: it draws the fields and hands every change to the
functions it was given; the engine controller (controller.py) reads it."""
from __future__ import annotations

import random
import tkinter as tk
from tkinter import ttk
from typing import Callable, Dict, Mapping, Optional

from ...base import EngineOption
from ..layout import Flow


class SettingsRow:
    """The settings on `parent`, from the engine's `options` and the values it holds
    (`settings`, e.g. from --agent). `on_choice(name, value)`: a choice made (Scoring too);
    `on_seed()`: Return in the Seed field."""

    def __init__(self, parent: tk.Misc, options: Mapping[str, EngineOption], settings: Mapping[str, object],
                 seed: Optional[int], movetime: int, on_choice: Callable[[str, str], None],
                 on_seed: Callable[[], None]):
        self.options, self.settings, self.on_choice = options, settings, on_choice
        row = self.frame = Flow(parent)
        scoring = options.get("Scoring")
        choices = scoring.choices if scoring and scoring.choices else ([scoring.default] if scoring and scoring.default else [])
        self.scoring_var = tk.StringVar(value=(scoring.default if scoring and scoring.default else ""))
        scoring_pair = tk.Frame(row)
        tk.Label(scoring_pair, text="Scoring").pack(side="left")
        self.scoring_box = ttk.Combobox(scoring_pair, textvariable=self.scoring_var, values=choices, width=10,
                                        state="readonly" if choices else "normal")
        self.scoring_box.pack(side="left", padx=(2, 0))
        self.scoring_box.bind("<<ComboboxSelected>>", lambda _e: on_choice("Scoring", self.scoring_var.get()))
        self.scoring_box.bind("<Return>", lambda _e: on_choice("Scoring", self.scoring_var.get()))
        seed_pair = tk.Frame(row)
        tk.Label(seed_pair, text="Seed").pack(side="left")
        self.seed_var = tk.StringVar(value=str(seed if seed is not None else random.randrange(1, 10**6)))
        # Wide enough for any seed a record holds (a 64-bit number: up to 20 digits).
        self.seed_entry = tk.Entry(seed_pair, textvariable=self.seed_var, width=21)
        self.seed_entry.pack(side="left", padx=(2, 0))
        self.seed_entry.bind("<Return>", lambda _e: on_seed())
        ms_pair = tk.Frame(row)
        tk.Label(ms_pair, text="Engine ms").pack(side="left")
        self.movetime_var = tk.StringVar(value=str(movetime))
        tk.Spinbox(ms_pair, from_=0, to=10000, increment=50, textvariable=self.movetime_var, width=6).pack(side="left", padx=2)

        # Who answers Hint and plays "Start Engine", and what it plays for: one combobox per
        # combo option the engine offers (`Objective` only from engines that have it).
        self.choice_vars: Dict[str, tk.StringVar] = {}
        self.choice_boxes: Dict[str, ttk.Combobox] = {}
        pairs = [scoring_pair, seed_pair, ms_pair]
        for name, width in (("Agent", 8), ("Objective", 8)):
            pair = self.option_box(row, name, width)
            if pair is not None:
                pairs.append(pair)
        row.add(*pairs)
        self.agent_var = self.choice_vars.get("Agent", tk.StringVar(value=""))

    def option_box(self, parent: tk.Misc, name: str, width: int) -> Optional[tk.Frame]:
        """A labelled read-only combobox for the engine's combo option `name`, if it has one."""
        option = self.options.get(name)
        if option is None or not option.choices:
            return None
        value = str(self.settings.get(name, option.default))
        var = tk.StringVar(value=value if value in option.choices else option.choices[0])
        pair = tk.Frame(parent)
        tk.Label(pair, text=name).pack(side="left")
        box = ttk.Combobox(pair, textvariable=var, values=option.choices, width=width, state="readonly")
        box.pack(side="left", padx=(2, 0))
        box.bind("<<ComboboxSelected>>", lambda _e: self.on_choice(name, var.get()))
        self.choice_vars[name] = var
        self.choice_boxes[name] = box
        return pair

    # --- what the row holds ---------------------------------------------------------------

    def movetime(self) -> Optional[int]:
        """Engine ms, None for a bare search (0 or not a number)."""
        try:
            ms = int(self.movetime_var.get())
        except ValueError:
            return None
        return ms if ms > 0 else None

    def show(self, name: str, value: str) -> None:
        """Shows `value` in the field of the choice `name` (Scoring, Agent, Objective)."""
        if name == "Scoring":
            self.scoring_var.set(value)
        elif name in self.choice_vars:
            self.choice_vars[name].set(value)

    def wanted(self) -> Dict[str, str]:
        """The choices shown, as option name -> value (Scoring only when it has one)."""
        wanted = {name: var.get() for name, var in self.choice_vars.items()}
        if self.scoring_var.get():
            wanted["Scoring"] = self.scoring_var.get()
        return wanted

    def scoring(self) -> str:
        return self.scoring_var.get()

    def objective(self) -> str:
        return self.choice_vars["Objective"].get() if "Objective" in self.choice_vars else ""

    def agent_name(self) -> str:
        """Which agent answers a search, as the status line names it."""
        agent = self.agent_var.get() or "engine"
        ms = self.movetime()
        return f"{agent}, {ms} ms" if ms else agent

    def seed(self) -> int:
        """The Seed field's number (text that is no number becomes one, shown in the field)."""
        try:
            return int(self.seed_var.get())
        except ValueError:
            value = abs(hash(self.seed_var.get())) % 10**9
            self.seed_var.set(str(value))
            return value
