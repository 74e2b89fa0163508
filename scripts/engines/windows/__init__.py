"""The Tkinter windows: the Blockudoku window (`engines.windows.blockudoku`, run by
scripts/blockudoku_gui.py), the Competitive Sudoku window (`engines.windows.sudoku`, run by
scripts/sudoku_gui.py), and what they and scripts/sudoku_puzzle_gui.py share, apart from the
drivers they talk through:

    from engines.windows import BoardAndPanel, EngineCalls, EngineSupervision

`foundation`: engine calls off the Tk thread (`EngineCalls`, `stop_search`), the busy bar,
dialogs, the choice of game in a record (`GameChoice`), and layouts that reflow
(`BoardAndPanel`, `ScrollPanel`, `Flow`). `supervision`: the status line, error dialogs, and
what happens when the engine fails, dies or is restarted (`EngineSupervision`). Only the
windows import this subpackage, so `import engines` never loads Tkinter; `import
engines.windows` does not load the two windows either.
"""
from .foundation import (
    BoardAndPanel,
    BusyIndicator,
    Dialogs,
    EngineCalls,
    Flow,
    GameChoice,
    ScrollPanel,
    Search,
    controls,
    fully_visible,
    stop_search,
)
from .supervision import EngineSupervision

__all__ = [
    "BoardAndPanel", "BusyIndicator", "Dialogs", "EngineCalls", "EngineSupervision", "Flow", "GameChoice", "ScrollPanel", "Search",
    "controls", "fully_visible", "stop_search",
]
