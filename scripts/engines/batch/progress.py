"""What a running batch evaluation tells as it goes (stderr): a progress bar, and why a job failed."""
from __future__ import annotations

import signal
import sys
import threading
import time
from typing import Dict


class Progress:
    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.stream = stream
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.lock = threading.Lock()
        self.draw()

    def step(self, label: str) -> None:
        with self.lock:
            self.done += 1
            self.draw(label)

    def draw(self, label: str = "") -> None:
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        elapsed = time.monotonic() - self.start
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0
        text = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} jobs {elapsed:5.0f}s eta {eta:4.0f}s"
        if self.tty:
            self.stream.write("\r" + text + (" " + label)[:40].ljust(40))
            if self.done == self.total:
                self.stream.write("\n")
        elif label:
            self.stream.write(text + " " + label + "\n")
        self.stream.flush()


def failure_reason(res: Dict[str, object]) -> str:
    """Why a job failed, in one line: `engine killed by SIGKILL`, `engine exited with code 2: ...`."""
    code = res.get("exit_code")
    detail = str(res.get("error") or "").strip().splitlines()
    last = detail[-1][:300] if detail else ""
    if code is None:
        return last or "the engine could not be run"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"engine killed by {name}" + (f" ({last})" if last else "")
    return f"engine exited with code {code}" + (f": {last}" if last else "")
