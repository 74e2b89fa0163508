"""An engine process whose output lines are timestamped by a reader thread.

The raw layer under the timing measurements: tests/compliance.py and scripts/timing_bench.py
build their reading and checking on it. Stamps and `send`'s return value come from the same
clock (time.perf_counter), so a reply's latency is `stamp - sent`.
"""
from __future__ import annotations

import queue
import subprocess
import threading
import time
from typing import List, Optional, Tuple


class TimedProcess:
    """Starts `cmd` with pipes; every line it prints lands in `lines` as (stamp, text), and a
    closing (stamp, None) when it closes its output."""

    def __init__(self, cmd: List[str]):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.lines: "queue.Queue[Tuple[float, Optional[str]]]" = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line: str) -> float:
        """Writes one line; returns the moment just before it was written (the reply may be
        stamped by the reader thread before this call returns)."""
        assert self.proc.stdin is not None
        sent = time.perf_counter()
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return sent
