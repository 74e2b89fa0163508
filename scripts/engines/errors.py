"""What the drivers raise about an engine: one base class, `EngineProblem`, and one subclass per
way a request can fail (the engine died, answered `error`, stayed silent, broke the protocol).
"""
from __future__ import annotations

import signal
from typing import Optional


class EngineProblem(Exception):
    """Base class of everything the drivers raise about an engine."""


class EngineDied(EngineProblem):
    """The engine process ended (or closed its output) while we were talking to it."""

    def __init__(self, exit_code: Optional[int], stderr_tail: str = "", command: str = ""):
        self.exit_code = exit_code
        self.stderr_tail = stderr_tail
        self.command = command
        where = f" after {command!r}" if command else ""
        tail = f"; stderr: {stderr_tail.strip()[-300:]}" if stderr_tail.strip() else ""
        super().__init__(f"engine died{where} with exit code {exit_code}{tail}")

    @property
    def reason(self) -> str:
        """How it ended, for people: `killed by SIGKILL`, `exit code 3`, `closed its output`."""
        code = self.exit_code
        if code is None:
            return "closed its output" if self.command != "start" else "could not start"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"


class EngineError(EngineProblem):
    """The engine answered a command with an `error <what>` line (its state is unchanged)."""

    def __init__(self, message: str, command: str = ""):
        self.message = message
        self.command = command
        super().__init__(f"engine error for {command!r}: {message}" if command else f"engine error: {message}")


class EngineTimeout(EngineProblem):
    """The engine did not answer within the allowed time."""


class ProtocolViolation(EngineProblem):
    """The engine answered something the protocol does not allow here."""

