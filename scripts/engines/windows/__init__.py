"""The Tkinter windows: the Blockudoku window (`engines.windows.blockudoku`, run by
scripts/blockudoku_gui.py), the Competitive Sudoku window (`engines.windows.sudoku`, run by
scripts/sudoku_gui.py), the sudoku puzzle window (`engines.windows.puzzle`, run by both
sudoku_gui.py --mode puzzle and scripts/sudoku_puzzle_gui.py), and what they share, apart from
the drivers they talk through:

    from engines.windows import BoardAndPanel, EngineCalls, EngineSupervision

`engine_calls`: engine calls off the Tk thread (`EngineCalls`, `Search`, `stop_search`), each
waiting on a `Wait` that knows its engine and ends it on Stop, from the button that reads Stop
meanwhile (`StopOffer`) or from the busy bar (`BusyIndicator`) once the engine is silent; `dialogs`: dialogs and the choice of game in a record (`GameChoice`); `layout`:
layouts that reflow (`BoardAndPanel`, `ScrollPanel`, `Flow`) and the opening size from the
screen; `run`: the event loop of a script's window, and Ctrl-C; `supervision`: the status line,
error dialogs, and what happens when the engine fails, dies or is restarted
(`EngineSupervision`, an object a window makes with its `SupervisionHooks`). Each window keeps
its game in a `model.py` that imports no Tk, and makes its other parts as objects given what
they use. Only the
windows import this subpackage, so `import engines` never loads Tkinter; `import
engines.windows` does not load the two windows either.
"""
from .dialogs import Dialogs, GameChoice
from .engine_calls import BusyIndicator, EngineCalls, Search, StopOffer, Wait, stop_search
from .layout import BoardAndPanel, Flow, ScrollPanel, controls, fully_visible, open_on_screen, opening_size
from .supervision import EngineSupervision, SupervisionHooks

__all__ = [
    "BoardAndPanel", "BusyIndicator", "Dialogs", "EngineCalls", "EngineSupervision", "Flow", "GameChoice", "ScrollPanel", "Search",
    "StopOffer", "SupervisionHooks", "Wait", "controls", "fully_visible", "open_on_screen", "opening_size", "stop_search",
]
