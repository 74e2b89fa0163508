"""Work units of a batch evaluation, and running one: the part that runs on a worker.

A unit is a dict of parameters (JSON-able; its sorted JSON is its key in the results file).
Three kinds:

- a grid job (no `unit` field): `--games` games of one `arena` or `selfplay` run, seeded by
  `seed` (batch_eval.py's original jobs);
- `unit: pair`: two Competitive Sudoku games on the same start position with sides swapped
  (`sudoku-lab arena --games 2`), seeded from the run's seed and the unit's index; with
  `openings` (an opening file), the start is opening `index % openings_count` + 1 of the file
  (`arena --openings FILE --opening K`), and a grid job plays its games round the suite;
- `unit: chain`: a fixed-exposure Blockudoku chain: `exposure` counted rounds of self-play,
  a new game (seeded from the run's seed, the unit's index and the game's number) after each
  death, each game's first `burn_in` rounds left out (neither rounds nor a death are counted
  there). No unit waits on one long game, and every unit has the same exposure, so units spread
  evenly over workers. The chain is driven here, one `blockudoku-lab selfplay --games 1` per game,
  capped at the rounds still missing. With `probes` (`exact` or a number of hands) the engine
  drives the chain instead (`selfplay --games 1 --chain-rounds`, seeded from the run's seed
  and the unit's index), so that every measured round also gives the probe (the exact chance
  that the next hand dies there), with crisis splitting when `split` (copies) is set; its one
  chain record (deaths, games, probe, windows) is the unit's record.

Standard library only: Ray workers import this module from the runtime environment.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import subprocess
import sys
import threading
import time
from typing import Dict, List, Mapping, Optional, Tuple

from ..base import set_parent_death_signal

Unit = Dict[str, object]

# Games in a row that may die inside their burn-in before a chain gives up (it would never end).
MAX_BURNT_GAMES = 1000


class RayUnavailable(Exception):
    """Ray could not be started or its cluster reached (batch_eval --ray; one line for the user)."""


def unit_key(unit: Mapping[str, object]) -> str:
    return json.dumps(unit, sort_keys=True)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the run's seed and a unit's (and a game's) index: same parts, same seed."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def is_board_file(board: str) -> bool:
    return not re.fullmatch(r"\d+x\d+", board)


def input_files(unit: Mapping[str, object]) -> List[str]:
    """Files a unit's command reads (a board file, a piece set): a Ray run ships them."""
    files = []
    if unit.get("game") == "sudoku" and unit.get("openings"):
        files.append(str(unit["openings"]))
    elif unit.get("game") == "sudoku" and is_board_file(str(unit.get("board", ""))):
        files.append(str(unit["board"]))
    if unit.get("pieces"):
        files.append(str(unit["pieces"]))
    return files


def command_for(unit: Mapping[str, object], binary: str, jsonl: str, files: Optional[Mapping[str, str]] = None,
                chain_game: Optional[Tuple[int, int]] = None) -> List[str]:
    """The engine command of a grid job or pair unit, or of one game of a chain ((seed, cap))."""
    files = files or {}
    if unit["game"] == "sudoku":
        pair = unit.get("unit") == "pair"
        board = str(unit["board"])
        seed = derive_seed(unit["seed"], unit["index"]) if pair else unit["seed"]
        cmd = [binary, "arena", "--first", str(unit["agent"]), "--second", str(unit["opponent"])]
        if unit.get("openings"):
            # The suite sets board and mode; a pair unit plays one opening of it.
            openings = str(unit["openings"])
            cmd += ["--openings", files.get(openings, openings)]
            if pair:
                cmd += ["--opening", str(int(unit["index"]) % int(unit["openings_count"]) + 1)]  # type: ignore[arg-type]
        else:
            cmd += ["--board", files.get(board, board), "--mode", str(unit["mode"])]
        cmd += ["--games", "2" if pair else str(unit["games"]), "--movetime", str(unit["movetime"]),
                "--seed", str(seed), "--threads", "1", "--quiet", "--jsonl", jsonl]
        if unit.get("givens"):
            cmd += ["--givens", str(unit["givens"])]
        return cmd
    if unit.get("unit") == "chain" and unit.get("probes"):
        cmd = [binary, "selfplay", "--games", "1", "--seed", str(derive_seed(unit["seed"], unit["index"])),
               "--chain-rounds", str(unit["exposure"]), "--burn-in", str(unit.get("burn_in") or 0),
               "--probes", str(unit["probes"])]
        if unit.get("split"):
            cmd += ["--split", str(unit["split"])]
    elif chain_game is not None:
        seed, cap = chain_game
        cmd = [binary, "selfplay", "--games", "1", "--seed", str(seed), "--max-rounds", str(cap)]
    else:
        cmd = [binary, "selfplay", "--games", str(unit["games"]), "--seed", str(unit["seed"])]
        if unit.get("max_rounds"):
            cmd += ["--max-rounds", str(unit["max_rounds"])]
    cmd += ["--threads", "1", "--agent", str(unit["agent"]), "--jsonl", jsonl]
    if unit.get("scoring"):
        cmd += ["--scoring", str(unit["scoring"])]
    if unit.get("pieces"):
        cmd += ["--pieces", files.get(str(unit["pieces"]), str(unit["pieces"]))]
    return cmd


# Engine processes running now, so an interrupted run can kill them.
RUNNING: "set[subprocess.Popen]" = set()
RUNNING_LOCK = threading.Lock()


def run_engine(cmd: List[str], jsonl: pathlib.Path, timeout: Optional[float],
               die_with_parent: bool = False) -> Tuple[Optional[int], str, str, List[Dict[str, object]]]:
    """Runs one engine command; (exit code or None, stdout, stderr, JSON records it wrote)."""
    if jsonl.exists():
        jsonl.unlink()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=set_parent_death_signal if die_with_parent and sys.platform.startswith("linux") else None)
    except OSError as err:
        proc, code, stdout, stderr = None, None, "", str(err)
    if proc is not None:
        with RUNNING_LOCK:
            RUNNING.add(proc)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, _ = proc.communicate()
            code, stderr = None, f"timed out after {timeout} s"
        finally:
            with RUNNING_LOCK:
                RUNNING.discard(proc)
    records: List[Dict[str, object]] = []
    if jsonl.exists():
        for line in jsonl.read_text().splitlines():
            line = line.strip()
            if line:
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
        jsonl.unlink()
    return code, stdout, stderr, records


def run_unit(unit: Unit, binary: str, tmp_dir: str, timeout: Optional[float] = None,
             files: Optional[Mapping[str, str]] = None, die_with_parent: bool = False) -> Dict[str, object]:
    """Runs one unit in engine processes; returns its result line (the unit's fields, key,
    command, exit_code, elapsed, records and, on failure, error)."""
    digest = hashlib.sha1(unit_key(unit).encode()).hexdigest()[:16]
    jsonl = pathlib.Path(tmp_dir) / f"job-{digest}-{os.getpid()}.jsonl.tmp"
    start = time.monotonic()
    if unit.get("unit") == "chain" and unit.get("probes"):
        cmd = command_for(unit, binary, str(jsonl), files)
        code, out, err, records = run_engine(cmd, jsonl, timeout, die_with_parent)
        if code == 0 and len(records) != 1:
            code, err = 1, f"expected one chain record, got {len(records)}"
    elif unit.get("unit") == "chain":
        cmd, code, out, err, records = _run_chain(unit, binary, jsonl, timeout, files, die_with_parent)
    else:
        cmd = command_for(unit, binary, str(jsonl), files)
        code, out, err, records = run_engine(cmd, jsonl, timeout, die_with_parent)
    result: Dict[str, object] = dict(unit)
    result.update({"key": unit_key(unit), "command": cmd, "exit_code": code,
                   "elapsed": round(time.monotonic() - start, 3), "records": records})
    if code != 0:
        result["error"] = (err or out).strip()[-2000:]
    return result


def _run_chain(unit: Unit, binary: str, jsonl: pathlib.Path, timeout: Optional[float],
               files: Optional[Mapping[str, str]], die_with_parent: bool):
    exposure, burn_in = int(unit["exposure"]), int(unit.get("burn_in") or 0)  # type: ignore[arg-type]
    deadline = None if timeout is None else time.monotonic() + timeout
    remaining, burnt, records = exposure, 0, []
    cmd: List[str] = []
    game = 0
    while remaining > 0:
        seed = derive_seed(unit["seed"], unit["index"], game)
        cmd = command_for(unit, binary, str(jsonl), files, chain_game=(seed, burn_in + remaining))
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        code, out, err, recs = run_engine(cmd, jsonl, left, die_with_parent)
        if code != 0 or len(recs) != 1:
            if code == 0:
                code, err = 1, f"expected one game record, got {len(recs)}"
            return cmd, code, out, err, records
        rec = dict(recs[0], game=game, chain_seed=seed)
        counted = max(0, int(rec["rounds"]) - burn_in)
        remaining -= counted
        records.append(rec)
        burnt = burnt + 1 if counted == 0 else 0
        if burnt >= MAX_BURNT_GAMES:
            return cmd, 1, "", f"{burnt} games in a row died within the burn-in of {burn_in} rounds", records
        game += 1
    return cmd, 0, "", "", records


def chain_counts(records: List[Dict[str, object]], burn_in: int) -> List[Tuple[int, bool]]:
    """(counted rounds, counted death) of each game of a chain (or of a plain self-play job)."""
    games = []
    for rec in records:
        rounds = rec.get("rounds", rec.get("rounds_played"))
        died = rec.get("died", rec.get("dead", rec.get("lost")))
        if rounds is None or died is None:
            raise ValueError(f"self-play record without rounds/died: {rec}")
        counted = max(0, int(rounds) - burn_in)  # type: ignore[arg-type]
        games.append((counted, bool(died) and counted > 0))
    return games


def run_unit_on_worker(unit: Unit, binary: str, timeout: Optional[float] = None,
                       files: Optional[Mapping[str, str]] = None) -> Dict[str, object]:
    """A Ray task's body: run_unit with the worker's temp folder, engines killed with the worker."""
    import tempfile

    return run_unit(unit, binary, tempfile.gettempdir(), timeout, files, die_with_parent=True)
