"""What the command-line tools in scripts/ share: their help layout and the check of agent
names (and other option values) against the engine itself, before any work starts."""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import Iterable, List, Optional, Sequence, Tuple, Type

from .base import LineEngine
from .errors import EngineError, EngineProblem


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """`--help` with each option's default (where it has one: not None, not a flag's False),
    and descriptions and epilogues kept as written."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        unset = action.default is None or action.default is False or action.default is argparse.SUPPRESS
        if ("%(default)" not in text and not unset
                and (action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE))):
            text += " (default: %(default)s)"
        return text


def missing_statistics(tool: str) -> Optional[str]:
    """The one-line message when the statistics (engines/batch/stats.py) cannot be imported because
    scipy, the `batch` extra, is not installed; None when it is."""
    if importlib.util.find_spec("scipy") is None:
        return f"{tool}: the scipy package is missing: python3 -m pip install -e 'scripts[batch]'"
    return None


def rejected_values(engine: LineEngine, option: str, values: Iterable[str]) -> List[str]:
    """The engine's own `error` for each value of `option` it does not take, in the given order
    (the option is left at the last value taken)."""
    errors = []
    for value in values:
        try:
            engine.setoption(option, value)
        except EngineError as err:
            errors.append(err.message)
    return errors


def check_option_values(command: Sequence[str], engine_class: Type[LineEngine],
                        wanted: Sequence[Tuple[str, Sequence[str]]], tool: str) -> Optional[str]:
    """Asks the engine (started with `command`) whether it takes each (option, values) of
    `wanted`; returns the first refusal as a one-line message, or None.

    An engine that cannot be started or does not finish the handshake cannot be asked: the
    tool says so on stderr and goes on (its jobs then report what goes wrong)."""
    try:
        engine = engine_class(list(command), startup_timeout=5)
    except (EngineProblem, OSError) as err:
        print(f"{tool}: cannot ask {' '.join(command)} for its option values ({err}); not checked",
              file=sys.stderr)
        return None
    try:
        for option, values in wanted:
            values = [v for v in dict.fromkeys(values) if v]
            if not values or option not in engine.options:
                continue
            errors = rejected_values(engine, option, values)
            if errors:
                return f"{os.path.basename(command[0])} refuses {option}: " + "; ".join(errors)
        return None
    except EngineProblem as err:
        print(f"{tool}: {' '.join(command)} failed while asked for its option values ({err}); not checked",
              file=sys.stderr)
        return None
    finally:
        engine.quit()
