"""batch_eval.py --ray ADDRESS on a real Ray cluster (one `ray start --head` on 127.0.0.1 for the module).

Each batch runs twice, without and with --ray, and the summaries must be the same; a Ray worker
killed mid-run and an interrupted run must not change the totals. The games are deterministic:
Blockudoku self-play with the default agent (no clock in its search) and Competitive Sudoku
between greedy and random.

The cluster is stopped by its own `ray start --block` process (SIGTERM: it drains and stops
what it started), then anything left in its process session is killed by pid: never `ray stop`,
which stops every Ray on the machine.
"""
import importlib.util
import json
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from engine_testing import SCRIPTS, bin_dir, live_processes, real_binary

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                                reason="the ray package is not installed (python3 -m pip install -e 'scripts[ray]')")

BATCH = SCRIPTS / "batch_eval.py"
CHAINS = ["blockudoku", "--agents", "default", "--chains", "6", "--exposure", "300", "--burn-in", "10",
          "--seeds", "3", "--jobs", "2"]
PAIRS = ["sudoku", "--agents", "greedy", "--opponents", "random", "--boards", "2x3", "--movetimes", "10",
         "--pairs", "30", "--sprt", "0,150,0.05,0.05", "--jobs", "2"]


# Ray listens on every interface: the test cluster takes only clients with its own fresh token
# (Ray versions without token authentication ignore these variables).
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_pids(sid: int):
    """Live processes of the process session `sid` (the cluster's, started by us)."""
    return [pid for pid, _, _, session in live_processes() if session == sid]


@pytest.fixture(scope="module")
def cluster():
    """The address of a private two-CPU Ray cluster on 127.0.0.1, stopped afterwards."""
    temp = tempfile.mkdtemp(prefix="ray-t-", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    port = free_port()
    ports = [f"--{name}={free_port()}" for name in ("dashboard-agent-listen-port",
                                                    "dashboard-agent-grpc-port", "metrics-export-port",
                                                    "runtime-env-agent-port", "node-manager-port",
                                                    "object-manager-port")]
    log = open(os.path.join(temp, "ray-start.log"), "w")
    env = dict(os.environ, **RAY_ENV)
    proc = subprocess.Popen([sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
                             f"--port={port}", "--num-cpus=2", "--node-ip-address=127.0.0.1", f"--temp-dir={temp}",
                             "--include-dashboard=false", "--disable-usage-stats", *ports],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    try:
        deadline = time.monotonic() + 180  # a hang guard, not a timing check
        text = ""
        while "Ray runtime started" not in text:
            text = pathlib.Path(log.name).read_text()
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"ray start failed:\n{text[-3000:]}")
            time.sleep(0.2)
        yield {"address": f"127.0.0.1:{port}", "pid": proc.pid}
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for _ in range(50):
            left = session_pids(proc.pid)
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL if _ > 10 else signal.SIGTERM)
                except ProcessLookupError:
                    pass
            time.sleep(0.2)
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


def batch(args, out, ray=None, engine="blockudoku-lab"):
    cmd = [sys.executable, str(BATCH), *args, "--engine", str(bin_dir() / engine), "--out", str(out)]
    if ray:
        cmd += ["--ray", ray]
    return cmd


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ, **RAY_ENV))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


@pytest.fixture(scope="module")
def chains_here(tmp_path_factory):
    """The chain batch's summary on this machine, without Ray."""
    real_binary("blockudoku-lab")
    return run(batch(CHAINS, tmp_path_factory.mktemp("here") / "chains.jsonl")).stdout


def units_in(out: pathlib.Path):
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert len({l["key"] for l in lines}) == len(lines), "a unit written twice"
    return lines


def test_chains_on_ray_same_summary(cluster, chains_here, tmp_path):
    out = tmp_path / "chains.jsonl"
    proc = run(batch(CHAINS, out, cluster["address"]))
    assert proc.stdout == chains_here
    assert "ray: 1 node(s), 2 CPUs in the Ray cluster at" in proc.stderr and "6/6 jobs" in proc.stderr
    assert len(units_in(out)) == 6


def test_probe_chains_on_ray_same_summary(cluster, tmp_path):
    # Units the engine drives (--probes, --split), with a piece file shipped to the workers.
    hard = SCRIPTS.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    args = ["blockudoku", "--agents", "default,default/nofit=36000", "--chains", "3", "--exposure", "300",
            "--burn-in", "10", "--probes", "exact", "--split", "4", "--pieces", str(hard), "--seeds", "3", "--jobs", "2"]
    here = run(batch(args, tmp_path / "here.jsonl")).stdout
    proc = run(batch(args, tmp_path / "ray.jsonl", cluster["address"]))
    assert proc.stdout == here and "probe ratio" in here
    assert len(units_in(tmp_path / "ray.jsonl")) == 6


def test_pairs_on_ray_same_summary_and_sprt_decision(cluster, tmp_path):
    real_binary("sudoku-lab")
    here = run(batch(PAIRS, tmp_path / "here.jsonl", engine="sudoku-lab")).stdout
    there = run(batch(PAIRS, tmp_path / "ray.jsonl", cluster["address"], engine="sudoku-lab")).stdout
    assert there == here
    assert "SPRT elo0 0 elo1 150 alpha 0.05 beta 0.05: H1 accepted after" in there
    units = units_in(tmp_path / "ray.jsonl")
    assert all(len(u["records"]) == 2 for u in units)


def children(pid: int):
    return [(child, name) for child, name, parent, _ in live_processes() if parent == pid]


def test_worker_killed_mid_run_same_totals(cluster, chains_here, tmp_path):
    """SIGKILL to the Ray worker process running a unit: Ray runs the task again, counted once."""
    out = tmp_path / "killed.jsonl"
    proc = subprocess.Popen(batch(CHAINS, out, cluster["address"]), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, **RAY_ENV))
    killed = None
    deadline = time.monotonic() + 300  # a hang guard
    while killed is None and proc.poll() is None and time.monotonic() < deadline:
        raylets = [pid for pid, comm in children(cluster["pid"]) if comm == "raylet"]
        for worker, _ in (c for r in raylets for c in children(r)):
            if any(comm == "blockudoku" for _, comm in children(worker)):
                os.kill(worker, signal.SIGKILL)  # a worker of our cluster, in the middle of a unit
                killed = worker
                break
        time.sleep(0.02)
    stdout, stderr = proc.communicate(timeout=600)
    assert killed is not None, "no worker seen running an engine"
    assert proc.returncode == 0, stderr[-3000:]
    assert stdout == chains_here
    assert len(units_in(out)) == 6 and "job failed" not in stderr and "Traceback" not in stderr


def test_interrupted_ray_run_resumes_without_duplicates(cluster, chains_here, tmp_path):
    out = tmp_path / "interrupted.jsonl"
    cmd = batch(CHAINS, out, cluster["address"])
    # Ctrl-C as a terminal sends it (the default disposition back, as in test_harness_batch).
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, **RAY_ENV),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None and (not out.exists() or not out.read_text().strip()):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130 and "interrupted" in err, err[-3000:]
    done = len(units_in(out))
    assert 1 <= done < 6, "the run should have been cut short"
    again = run(cmd)
    assert f"resuming: {done} of 6 jobs" in again.stderr and f"{6 - done}/{6 - done} jobs" in again.stderr
    assert again.stdout == chains_here
    assert len(units_in(out)) == 6
