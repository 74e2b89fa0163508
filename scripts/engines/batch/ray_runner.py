"""Units of a batch evaluation as Ray tasks (batch_eval.py --ray; the only module importing ray).

`--ray local` starts a private Ray on this machine with `--jobs` CPUs; any other value is the
address of a running cluster (`ray start --head` prints it), whose CPUs all take units. Each
unit is one task of one CPU running `engines.batch.units.run_unit_on_worker`. What the workers need
travels in Ray's runtime environment: a working directory with this `engines` package, the
engine binary (`bin/NAME`; or `--worker-engine PATH` names a binary already on every node)
and the files the units read (board files, piece sets). A task whose worker or node is lost is
run again by Ray (`max_retries`); its result arrives once, since only returned results are
written.
"""
from __future__ import annotations

import os
import pathlib
import shutil
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray  # noqa: E402

from . import units as units_mod  # noqa: E402
from .units import RayUnavailable  # noqa: E402

ENGINES_DIR = pathlib.Path(__file__).resolve().parent
# Ray runs a task again this often when its worker process or node dies.
TASK_RETRIES = 3


class RayUnits:
    """Submit units, wait for finished ones; the same shape as batch_eval's local pool."""

    def __init__(self, address: str, jobs: int, binary: str, worker_engine: Optional[str],
                 units: Sequence[Dict[str, object]], timeout: Optional[float]):
        self.stage = pathlib.Path(tempfile.mkdtemp(prefix="batch-eval-ray-"))
        shutil.copytree(ENGINES_DIR, self.stage / "engines", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        if worker_engine:
            self.binary = worker_engine
        else:
            (self.stage / "bin").mkdir()
            target = self.stage / "bin" / pathlib.Path(binary).name
            shutil.copy2(binary, target)
            self.binary = os.path.join("bin", target.name)  # relative to the task's working directory
        self.files: Dict[str, str] = {}
        for path in sorted({f for u in units for f in units_mod.input_files(u)}):
            (self.stage / "files").mkdir(exist_ok=True)
            name = f"{len(self.files)}-{pathlib.Path(path).name}"
            shutil.copy2(path, self.stage / "files" / name)
            self.files[path] = os.path.join("files", name)
        # Ray prints its own notices (such as a lost worker) on stdout, where the summary goes:
        # they go to stderr with the progress, until close().
        self.stdout, sys.stdout = sys.stdout, sys.stderr
        runtime_env = {"working_dir": str(self.stage)}
        kwargs = dict(runtime_env=runtime_env, logging_level="ERROR", log_to_driver=False,
                      include_dashboard=False)
        try:
            if address == "local":
                ray.init(address="local", num_cpus=max(1, jobs), **kwargs)
            else:
                ray.init(address=address, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as err:
            self.close()
            detail = str(err).strip().splitlines()[-1][:300] if str(err).strip() else type(err).__name__
            raise RayUnavailable(f"cannot start or reach Ray at '{address}' ({detail}); a cluster that "
                                 "uses token authentication needs RAY_AUTH_MODE=token here too") from err
        self.timeout = timeout
        self.task = ray.remote(num_cpus=1, max_retries=TASK_RETRIES)(units_mod.run_unit_on_worker)
        self.pending: Dict[object, Tuple[Dict[str, object], int]] = {}
        self._cpus, self._cpus_at = 0, 0.0
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        where = "a private Ray on this machine" if address == "local" else f"the Ray cluster at {address}"
        print(f"ray: {len(nodes)} node(s), {self.cpus()} CPUs in {where}", file=sys.stderr)

    def cpus(self) -> int:
        now = time.monotonic()
        if now - self._cpus_at > 5:
            self._cpus = int(ray.cluster_resources().get("CPU", 1))
            self._cpus_at = now
        return max(1, self._cpus)

    def capacity(self) -> int:
        """Units in flight: two per CPU, so workers never wait for the driver."""
        return 2 * self.cpus()

    def submit(self, unit: Dict[str, object], attempt: int) -> None:
        ref = self.task.remote(unit, self.binary, self.timeout, self.files)
        self.pending[ref] = (unit, attempt)

    def wait(self) -> List[Tuple[Dict[str, object], int, Dict[str, object]]]:
        """Blocks until at least one unit is finished; returns (unit, attempt, result) of all finished."""
        refs = list(self.pending)
        ready: List[object] = []
        while not ready:
            ready, rest = ray.wait(refs, num_returns=1, timeout=0.5)
        if rest:
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        done = []
        for ref in ready:
            unit, attempt = self.pending.pop(ref)
            try:
                result = ray.get(ref)
            except Exception as err:  # a task lost more often than Ray retries, or a worker error
                result = dict(unit, key=units_mod.unit_key(unit), command=[self.binary], exit_code=None, elapsed=0.0,
                              records=[], error=f"ray task failed: {type(err).__name__}: {str(err).strip()[-500:]}")
            done.append((unit, attempt, result))
        return done

    def stop(self) -> None:
        """Drops the units not finished: disconnects from Ray, which ends this driver's tasks
        (their workers and engines are killed) and a private `local` cluster.

        Not `ray.cancel(ref, force=True)` one by one: a task that finishes while it is being
        cancelled can abort the driver inside Ray (its task manager meets a reply for a task
        it no longer holds: exit code 1 and a stack trace, seen in CI after an SPRT stop).
        """
        getattr(self, "pending", {}).clear()
        try:
            ray.shutdown()
        except Exception:
            pass

    def close(self) -> None:
        """Stops (see `stop`), then gives stdout back and removes the staged files."""
        self.stop()
        sys.stdout = self.stdout
        shutil.rmtree(self.stage, ignore_errors=True)
