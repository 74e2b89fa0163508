"""The job grid of a batch evaluation: one job (unit) per point of agents x opponents x boards x
modes x movetimes x seeds (Competitive Sudoku) or agents x scoring rules x seeds (Blockudoku),
or per game pair or chain with --pairs and --chains (engines/batch/units.py)."""
from __future__ import annotations

import itertools
import pathlib
import re
from typing import Dict, List, Optional, Tuple

from .units import run_unit, unit_key

# A board given as a block shape (`3x3`), not a board file.
BLOCK_SHAPE = re.compile(r"[0-9]+x[0-9]+")


def parse_list(text: str) -> List[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def parse_seeds(text: str) -> List[int]:
    """`1,2,5` or `1-4` or a mix: `1-3,7`."""
    seeds: List[int] = []
    for part in parse_list(text):
        if "-" in part[1:]:
            lo, hi = part.split("-", 1)
            seeds.extend(range(int(lo), int(hi) + 1))
        else:
            seeds.append(int(part))
    return seeds


def job_key(params: Dict[str, object]) -> str:
    return unit_key(params)


def opening_suite(path: str) -> Tuple[int, str, str]:
    """(openings, block shape, mode) of an opening file (`sudoku-lab arena --openings`): its
    `position` lines, or the games of a record file; shape and mode are the first opening's,
    and every opening must share them (one setting of the summary). The arena checks the
    positions themselves."""
    try:
        lines = [l.strip() for l in pathlib.Path(path).read_text().splitlines()]
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"--openings {path}: cannot read it ({err})") from None
    lines = [l for l in lines if l and not l.startswith("#")]
    settings = []
    if lines and lines[0].startswith("competitive-sudoku-record"):
        shape = mode = None
        for line in lines:
            key, _, rest = line.partition(" ")
            if key == "shape":
                shape = rest.strip()
            elif key == "mode":
                mode = rest.strip()
            elif key == "end":
                settings.append((shape, mode or "classic"))
                shape = mode = None
    else:
        for n, line in enumerate(lines, 1):
            words = line.split()
            if words[0] != "position" or len(words) < 3:
                raise ValueError(f"--openings {path}: '{line[:40]}' is not a position line")
            mode = words[words.index("mode") + 1] if "mode" in words[:-1] else "classic"
            settings.append((words[1], mode))
    if not settings:
        raise ValueError(f"--openings {path}: no opening in the file")
    if len(set(settings)) > 1:
        raise ValueError(f"--openings {path}: the openings differ in board or mode ({sorted(set(map(str, settings)))[:2]}); "
                         "give one file per board and mode")
    return len(settings), str(settings[0][0]), str(settings[0][1])


def sudoku_jobs(args) -> List[Dict[str, object]]:
    openings = getattr(args, "openings", None)
    if openings:
        if args.boards or args.modes or args.givens:
            raise ValueError("--openings sets the board and mode: no --boards, --modes or --givens with it")
        count, board, mode = opening_suite(openings)
        boards, modes = [board], [mode]
    else:
        boards, modes = parse_list(args.boards or "3x3"), parse_list(args.modes or "classic")
    settings = list(itertools.product(
        parse_list(args.agents), parse_list(args.opponents), boards, modes,
        [int(t) for t in parse_list(args.movetimes)]))
    jobs = []
    if args.pairs:
        # Index outside the settings: every setting's first units come first (SPRT, streaming).
        for seed, index, (agent, opponent, board, mode, movetime) in itertools.product(
                parse_seeds(args.seeds), range(args.pairs), settings):
            job = {"game": "sudoku", "unit": "pair", "agent": agent, "opponent": opponent, "board": board,
                   "mode": mode, "movetime": movetime, "seed": seed, "index": index}
            if args.givens:
                job["givens"] = args.givens
            if openings:
                job.update(openings=openings, openings_count=count)
            jobs.append(job)
        return jobs
    for (agent, opponent, board, mode, movetime), seed in itertools.product(settings, parse_seeds(args.seeds)):
        job = {"game": "sudoku", "agent": agent, "opponent": opponent, "board": board, "mode": mode,
               "movetime": movetime, "seed": seed, "games": args.games}
        if args.givens:
            job["givens"] = args.givens
        if openings:
            job.update(openings=openings, openings_count=count)
        jobs.append(job)
    return jobs


def blockudoku_jobs(args) -> List[Dict[str, object]]:
    jobs = []
    scorings = parse_list(args.scorings) if args.scorings else [None]
    if args.chains:
        for seed, index, agent, scoring in itertools.product(
                parse_seeds(args.seeds), range(args.chains), parse_list(args.agents), scorings):
            job = {"game": "blockudoku", "unit": "chain", "agent": agent, "seed": seed,
                   "index": index, "exposure": args.exposure, "burn_in": args.burn_in}
            # Absent unless given: the keys of runs made without probes stay as they were.
            if args.probes:
                job["probes"] = args.probes
            if args.split:
                job["split"] = args.split
            jobs.append(with_rules(job, scoring, args.pieces))
        return jobs
    for agent, scoring, seed in itertools.product(parse_list(args.agents), scorings, parse_seeds(args.seeds)):
        jobs.append(with_rules({"game": "blockudoku", "agent": agent, "seed": seed, "games": args.games,
                                "max_rounds": args.max_rounds}, scoring, args.pieces))
    return jobs


def with_rules(job: Dict[str, object], scoring: Optional[str], pieces: Optional[str]) -> Dict[str, object]:
    """A Blockudoku job with its scoring rule and piece set, when not the engine's defaults
    (absent keys keep the job keys of runs made without them)."""
    if scoring is not None:
        job["scoring"] = scoring
    if pieces:
        job["pieces"] = pieces
    return job


def run_job(job: Dict[str, object], binary: str, tmp_dir: pathlib.Path, timeout: Optional[float]) -> Dict[str, object]:
    """Runs one job (unit) in its own engine process(es); returns its result line."""
    return run_unit(job, binary, str(tmp_dir), timeout)


def check_probes(args) -> None:
    """--probes needs --chains and is exact or a number of hands; --split needs --probes, at least 2."""
    if args.probes is not None:
        if not args.chains:
            raise ValueError("--probes needs --chains")
        if args.probes != "exact" and not (args.probes.isdigit() and int(args.probes) >= 1):
            raise ValueError(f"--probes must be exact or a number of hands (at least 1), got {args.probes!r}")
    if args.split is not None:
        if args.probes is None:
            raise ValueError("--split needs --probes")
        if args.split < 2:
            raise ValueError(f"--split must be at least 2, got {args.split}")


def job_label(job: Dict[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in job.items() if k not in ("game", "games"))


def check_files(args) -> None:
    """Every file the jobs would read (a board file of --boards, --openings, --pieces) can be
    read, or ValueError naming the first that cannot: refused once, before any job runs."""
    files = [(f"--boards {board}", board) for board in parse_list(getattr(args, "boards", None) or "")
             if not BLOCK_SHAPE.fullmatch(board)]
    for option in ("openings", "pieces"):
        if getattr(args, option, None):
            files.append((f"--{option} {getattr(args, option)}", getattr(args, option)))
    for what, path in files:
        try:
            with open(path, "rb"):
                pass
        except OSError as err:
            raise ValueError(f"{what}: {err.strerror or err}") from None
