"""Running the jobs of a batch evaluation: on this machine (`LocalUnits`, a thread per job
slot) or as Ray tasks (engines/batch/ray_runner.py, imported only with --ray), each finished job
appended to the results file at once, a killed one run again, an SPRT that decides stopping
the run."""
from __future__ import annotations

import collections
import concurrent.futures
import json
import os
import pathlib
import sys
from typing import Dict, List, Optional, Tuple

from .units import RUNNING, RUNNING_LOCK
from .jobs import job_key, job_label, run_job
from .progress import Progress, failure_reason
from .results import hold_results_file, load_done
from .sprt import Sprt


class LocalUnits:
    """Units on this machine: a thread per job slot, each job's work in its own engine process."""

    def __init__(self, workers: int, binary: str, tmp_dir: pathlib.Path, timeout: Optional[float]):
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers))
        self.binary, self.tmp_dir, self.timeout = binary, tmp_dir, timeout
        self.pending: Dict[concurrent.futures.Future, Tuple[Dict[str, object], int]] = {}

    def capacity(self) -> int:
        return sys.maxsize  # all jobs queued at once; the pool runs --jobs of them at a time

    def submit(self, job: Dict[str, object], attempt: int) -> None:
        self.pending[self.pool.submit(run_job, job, self.binary, self.tmp_dir, self.timeout)] = (job, attempt)

    def wait(self) -> List[Tuple[Dict[str, object], int, Dict[str, object]]]:
        finished, _ = concurrent.futures.wait(self.pending, return_when=concurrent.futures.FIRST_COMPLETED)
        return [(*self.pending.pop(fut), fut.result()) for fut in finished]

    def stop(self) -> None:
        """Jobs not started are dropped and running engines killed."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        with RUNNING_LOCK:
            for proc in RUNNING:
                proc.kill()
        self.pending.clear()

    def close(self) -> None:
        self.pool.shutdown(wait=True)


def run(jobs: List[Dict[str, object]], binary: str, out: pathlib.Path, workers: int, timeout: Optional[float],
        retries: int = 1, ray_address: Optional[str] = None, worker_engine: Optional[str] = None,
        sprt: Optional[Sprt] = None) -> List[Dict[str, object]]:
    out.parent.mkdir(parents=True, exist_ok=True)
    hold_results_file(out)
    done = load_done(out)
    todo = [j for j in jobs if job_key(j) not in done]
    if done:
        print(f"resuming: {len(jobs) - len(todo)} of {len(jobs)} jobs already in {out}", file=sys.stderr)
    results = [done[job_key(j)] for j in jobs if job_key(j) in done]
    if sprt is not None and sprt.advance(done):
        return results
    if ray_address:
        from .ray_runner import RayUnits  # the only place Ray is imported

        pool = RayUnits(ray_address, workers, binary, worker_engine, todo, timeout)
    else:
        pool = LocalUnits(workers, binary, out.parent, timeout)
    progress = Progress(len(todo))
    queue = collections.deque(todo)
    try:
        while queue or pool.pending:
            while queue and len(pool.pending) < pool.capacity():
                pool.submit(queue.popleft(), 0)
            for job, attempt, res in pool.wait():
                label = job_label(job)
                code = res.get("exit_code")
                if code != 0:
                    # Reported here, once. A kill or crash (a signal) may not happen again:
                    # the job is run again; an exit code is the engine's answer, kept.
                    reason = failure_reason(res)
                    if code is not None and code < 0 and attempt < retries:
                        print(f"\njob {label}: {reason}; running it again ({attempt + 1} of {retries})",
                              file=sys.stderr)
                        pool.submit(job, attempt + 1)
                        continue
                    print(f"\njob failed ({label}): {reason}\n  command: {' '.join(res['command'])}\n"
                          "  not counted: the next run of the same command does it again", file=sys.stderr)
                    label = "FAILED " + label
                with out.open("a") as f:
                    f.write(json.dumps(res) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
                results.append(res)
                progress.step(label)
                if code == 0:
                    done[res["key"]] = res
            if sprt is not None and sprt.advance(done):
                print(f"\n{sprt.line()}: stopping", file=sys.stderr)
                pool.stop()
                break
    except KeyboardInterrupt:
        # Units not finished are dropped (running engines killed); their results were not
        # written, so the next run does them again.
        message = f"\ninterrupted: finished jobs are in {out}; run the same command again to resume"
        if ray_address:
            # Every finished unit is already on disk (fsync above): disconnect (which ends
            # this driver's tasks and a private `local` cluster, see RayUnits.stop) and leave
            # without Ray's exit hooks.
            print(message, file=sys.stderr)
            pool.close()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
        pool.stop()
        print(message, file=sys.stderr)
        raise
    finally:
        pool.close()
    return results
