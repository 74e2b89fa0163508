"""The results file of a batch evaluation (--out, JSON lines): what is already done (a rerun
resumes), and one run at a time per file."""
from __future__ import annotations

import json
import pathlib
from typing import Dict


def load_done(out: pathlib.Path) -> Dict[str, Dict[str, object]]:
    """Results already written; a torn last line (killed mid-write) is dropped from the file."""
    done: Dict[str, Dict[str, object]] = {}
    if not out.exists():
        return done
    good_lines = []
    torn = False
    for line in out.read_text().splitlines():
        if not line.strip():
            continue
        try:
            res = json.loads(line)
        except json.JSONDecodeError:
            torn = True
            continue
        if res.get("exit_code") == 0 and "key" in res:
            done[res["key"]] = res
            good_lines.append(line)
        else:
            torn = True  # failed jobs are run again
    if torn:
        out.write_text("".join(l + "\n" for l in good_lines))
    return done


HELD: Dict[str, object] = {}


def hold_results_file(out: pathlib.Path, fresh: bool = False) -> None:
    """One run at a time per results file: a second one would run the same units again. The
    lock is on the results file itself (created empty when missing), so nothing is left behind;
    `fresh` empties it once the lock is held."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no check
        fcntl = None
    if str(out) in HELD:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    held = open(out, "a")
    if fcntl is not None:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held.close()
            raise ResultsBusy(f"another batch_eval run is writing {out}; wait for it or give another --out")
    if fresh:
        held.truncate(0)
    HELD[str(out)] = held  # held until this process exits


class ResultsBusy(Exception):
    """Another run is writing the same results file."""
