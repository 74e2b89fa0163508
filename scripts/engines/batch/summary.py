"""What a batch evaluation's results say: one row per setting (score with Wilson's interval
and Elo from game pairs; Blockudoku hazard with its exact Poisson interval, the probe hazard),
the table printed at the end, and each Blockudoku agent compared with the baseline agent."""
from __future__ import annotations

import sys
from typing import Dict, List, Optional, Sequence, Tuple

from .stats import elo_pentanomial, mean_interval, pentanomial, poisson_interval, rate_ratio, ratio_interval, wilson
from .units import chain_counts


def game_points(rec: Dict[str, object]) -> float:
    """Points of the evaluated agent (the arena's `first`) in one game: 1, 0.5 or 0."""
    if "first_points" in rec:
        return float(rec["first_points"])  # type: ignore[arg-type]
    scores, side = rec.get("scores"), rec.get("first_player")
    if isinstance(scores, list) and side in (1, 2):
        mine, theirs = scores[side - 1], scores[2 - side]
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    raise ValueError(f"cannot tell who won: {rec}")


def blockudoku_game(rec: Dict[str, object], burn_in: int = 0) -> Tuple[int, bool]:
    """(rounds counted, death counted) of one self-play game record (after its burn-in)."""
    return chain_counts([rec], burn_in)[0]


def unit_order(res: Dict[str, object]) -> Tuple[int, int]:
    return int(res.get("seed", 0)), int(res.get("index", 0))  # type: ignore[arg-type]


def game_pairs(res: Dict[str, object]) -> List[float]:
    """Points of the evaluated agent in each complete pair of a job's games (games 1-2, 3-4, ...).

    The arena plays games 2k-1 and 2k on the same start position with sides swapped."""
    by_pair: Dict[int, List[float]] = {}
    for rec in res.get("records", []):  # type: ignore[union-attr]
        by_pair.setdefault((int(rec.get("game", 1)) - 1) // 2, []).append(game_points(rec))
    return [sum(p) for _, p in sorted(by_pair.items()) if len(p) == 2]


def distinct_games(records: Sequence[Dict[str, object]]) -> int:
    """Games that differ from each other: in their start or in their moves."""
    return len({(str(r.get("start")), str(r.get("history"))) for r in records})


def summarise(results: Sequence[Dict[str, object]]) -> List[Dict[str, object]]:
    """Aggregates jobs (units) over seeds and indices into one row per setting."""
    groups: Dict[Tuple, List[Dict[str, object]]] = {}
    for res in results:
        if res["game"] == "sudoku":
            key = ("sudoku", res["agent"], res["opponent"], res["board"], res["mode"], res["movetime"], res.get("givens"),
                   res.get("openings"))
        else:
            key = ("blockudoku", res["agent"], res.get("scoring"), res.get("max_rounds"), res.get("exposure"),
                   res.get("burn_in"), res.get("pieces"), res.get("probes"), res.get("split"))
        groups.setdefault(key, []).append(res)
    rows = []
    for key, items in groups.items():
        items = sorted(items, key=unit_order)
        records = [r for it in items for r in it.get("records", [])]
        failed = sum(1 for it in items if it.get("exit_code") != 0)
        if key[0] == "sudoku":
            pts = [game_points(r) for r in records]
            n = len(pts)
            wins = sum(1 for p in pts if p == 1.0)
            draws = sum(1 for p in pts if p == 0.5)
            lo, hi = wilson(sum(pts), n)
            forfeits = sum(1 for r in records if r.get("forfeit"))
            penta = pentanomial([p for it in items for p in game_pairs(it)])
            rows.append({"game": "sudoku", "agent": key[1], "opponent": key[2], "board": key[3], "mode": key[4],
                         "movetime": key[5], "givens": key[6], "games": n, "wins": wins, "draws": draws,
                         "losses": n - wins - draws, "score": (sum(pts) / n) if n else float("nan"),
                         "ci": (lo, hi), "forfeit_games": forfeits, "failed_jobs": failed,
                         "pentanomial": penta, "elo": elo_pentanomial(penta),
                         "openings": key[7], "distinct": distinct_games(records),
                         "series": [(sum(game_points(r) for r in it.get("records", [])), len(it.get("records", [])))
                                    for it in items]})
        elif key[7]:
            rows.append(probe_row(key, items, failed))
        else:
            burn_in = int(key[5] or 0)
            per_unit = [chain_counts(it.get("records", []), burn_in) for it in items]
            games = [g for unit in per_unit for g in unit]
            rounds = sum(g[0] for g in games)
            deaths = sum(1 for g in games if g[1])
            lo, hi = poisson_interval(deaths)
            rows.append({"game": "blockudoku", "agent": key[1], "scoring": key[2], "max_rounds": key[3],
                         "exposure": key[4], "burn_in": key[5], "pieces": key[6], "probes": None, "split": None,
                         "games": len(games), "deaths": deaths, "rounds": rounds,
                         "deaths_per_1000": 1000 * deaths / rounds if rounds else float("nan"),
                         "ci_per_1000": (1000 * lo / rounds, 1000 * hi / rounds) if rounds else (float("nan"),) * 2,
                         "mean_rounds": rounds / len(games) if games else float("nan"),
                         "game_lengths": games, "failed_jobs": failed,
                         "series": [(sum(1 for g in unit if g[1]), sum(g[0] for g in unit)) for unit in per_unit]})
    return rows


# The probe levels of the engine's `probe entries` line and of its records' `entries`, in order.
ENTRY_LEVELS = ("1e-6", "1e-5", "1e-4", "1e-3")


def probe_row(key: Tuple, items: Sequence[Dict[str, object]], failed: int) -> Dict[str, object]:
    """The row of chain units the engine drove with probes: one chain record per unit (its
    deaths, games, measured rounds, mean probe, entries into the probe levels and, with --split,
    windows opened)."""
    recs = [it["records"][0] for it in items if it.get("exit_code") == 0 and it.get("records")]
    deaths = sum(int(r["deaths"]) for r in recs)
    rounds = sum(int(r["rounds"]) for r in recs)
    games = sum(int(r["games"]) for r in recs)
    lo, hi = poisson_interval(deaths)
    windows = sum(int(r["windows"]) for r in recs) if recs and all(r.get("windows") is not None for r in recs) else None
    # The engine's `probe entries` levels (crates/blockudoku/README.md, "Chain runs"), summed
    # over the units.
    entries = ([sum(int(r["entries"][i]) for r in recs) for i in range(len(ENTRY_LEVELS))]
               if recs and all(r.get("entries") is not None for r in recs) else None)
    return {"game": "blockudoku", "agent": key[1], "scoring": key[2], "max_rounds": key[3],
            "exposure": key[4], "burn_in": key[5], "pieces": key[6], "probes": key[7], "split": key[8],
            "games": games, "deaths": deaths, "rounds": rounds,
            "deaths_per_1000": 1000 * deaths / rounds if rounds else float("nan"),
            "ci_per_1000": (1000 * lo / rounds, 1000 * hi / rounds) if rounds else (float("nan"),) * 2,
            "mean_rounds": rounds / games if games else float("nan"),
            # Every unit has the same exposure: the mean of the units' probes is the pooled one,
            # and the units are independent chains.
            "probe": mean_interval([float(r["probe"]) for r in recs]), "windows": windows, "entries": entries,
            "units": len(recs),
            "unit_probes": [float(r["probe"]) for r in recs],
            "game_lengths": [], "failed_jobs": failed,
            "series": [(int(r["deaths"]), int(r["rounds"])) for r in recs]}


def signed(x: float) -> str:
    return "+inf" if x == float("inf") else "-inf" if x == float("-inf") else f"{x:+.1f}"


def comparisons(rows: Sequence[Dict[str, object]], baseline: Optional[str]) -> List[str]:
    """Each Blockudoku agent's hazard over the baseline agent's, on the same settings."""
    blocku = [r for r in rows if r["game"] == "blockudoku" and r["rounds"]]
    same = ("scoring", "max_rounds", "exposure", "burn_in", "pieces", "probes", "split")
    lines, probes = [], []
    for r in sorted(blocku, key=lambda r: (r["agent"], str(r["scoring"]))):
        if r["agent"] == baseline:
            continue
        base = next((b for b in blocku if b["agent"] == baseline and all(b[k] == r[k] for k in same)), None)
        if base is None:
            continue
        ratio, (lo, hi), p = rate_ratio(r["deaths"], r["rounds"], base["deaths"], base["rounds"])
        lines.append(f"{r['agent']:<10} / {baseline:<10} {ratio:>9.3f} ({lo:.3f}-{hi:.3f}) {p:>10.3g}"
                     f"   ({r['deaths']} deaths in {r['rounds']} rounds vs {base['deaths']} in {base['rounds']})")
        if r["probes"]:
            (a, se_a, _, _), (b, se_b, _, _) = r["probe"], base["probe"]
            pr, plo, phi = ratio_interval(a, se_a, b, se_b)
            probes.append(f"{r['agent']} / {baseline}: probe ratio {pr:.3f} ({fmt_ci(plo, phi, lambda x: f'{x:.3f}')}, "
                          "normal on the log scale)")
            if r["windows"] is not None and base["windows"] is not None:
                wr, (wlo, whi), wp = rate_ratio(r["windows"], r["rounds"], base["windows"], base["rounds"])
                probes.append(f"{r['agent']} / {baseline}: window ratio {wr:.3f} ({wlo:.3f}-{whi:.3f}), "
                              f"p-value {wp:.3g} ({r['windows']} windows vs {base['windows']}, exact conditional, "
                              "windows taken as independent)")
            for level, a, b in zip(ENTRY_LEVELS, r.get("entries") or [], base.get("entries") or []):
                if a + b:
                    er, (elo, ehi), ep = rate_ratio(a, r["rounds"], b, base["rounds"])
                    probes.append(f"{r['agent']} / {baseline}: entries at {level} ratio {er:.3f} ({elo:.3f}-{ehi:.3f}), "
                                  f"p-value {ep:.3g} ({a} entries vs {b}, exact conditional, entries taken as independent)")
    if lines:
        lines.insert(0, "hazard ratio (95% CI, exact conditional binomial test)        p-value")
    return lines + probes


def sci(x: float) -> str:
    """x in three significant digits as the engine prints rates: 2.71e-6."""
    if x == 0:
        return "0"
    if x != x:
        return "nan"
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def fmt_ci(lo: float, hi: float, form) -> str:
    """`95% CI lo - hi`, each through `form`, or why there is no interval."""
    if lo != lo or hi != hi:
        return "no interval: fewer than 2 chains"
    return f"95% CI {form(lo)} - {form(hi)}"


def print_table(rows: Sequence[Dict[str, object]], out=sys.stdout, baseline: Optional[str] = None) -> None:
    sudoku = [r for r in rows if r["game"] == "sudoku"]
    if sudoku:
        head = f"{'agent':<10} {'opponent':<10} {'board':<8} {'mode':<8} {'ms':>5} {'games':>6} {'W-D-L':>11} {'score':>7} {'95% CI':>15} {'forfeit':>7}"
        print(head, file=out)
        print("-" * len(head), file=out)
        ordered = sorted(sudoku, key=lambda r: (r["agent"], r["opponent"], r["board"], r["mode"], r["movetime"]))
        for r in ordered:
            lo, hi = r["ci"]
            wdl = f"{r['wins']}-{r['draws']}-{r['losses']}"
            print(f"{r['agent']:<10} {r['opponent']:<10} {r['board']:<8} {r['mode']:<8} {r['movetime']:>5} {r['games']:>6} "
                  f"{wdl:>11} {100 * r['score']:>6.1f}% {100 * lo:>6.1f}-{100 * hi:>5.1f}% {r['forfeit_games']:>7}"
                  + (f"  ({r['failed_jobs']} failed jobs)" if r["failed_jobs"] else ""), file=out)
        suites = [r for r in ordered if r.get("openings")]
        if suites:
            print("\ndistinct games (different starts or moves) over the opening suites", file=out)
            for r in suites:
                print(f"{r['agent']} vs {r['opponent']} {r['board']} {r['mode']} {r['movetime']} ms: "
                      f"{r['distinct']} of {r['games']} games, openings {r['openings']}", file=out)
        if any(sum(r["pentanomial"]) for r in ordered):
            print("\nElo from game pairs (95% CI; pairs scoring 0, 0.5, 1, 1.5, 2 points)", file=out)
            for r in ordered:
                if sum(r["pentanomial"]):
                    value, lo, hi = r["elo"]
                    interval = "no interval: every pair scored alike" if lo != lo else f"{signed(lo)}..{signed(hi)}"
                    print(f"{r['agent']} vs {r['opponent']} {r['board']} {r['mode']} {r['movetime']} ms: "
                          f"{signed(value)} ({interval}), {sum(r['pentanomial'])} pairs "
                          f"{'-'.join(str(c) for c in r['pentanomial'])}", file=out)
    blocku = [r for r in rows if r["game"] == "blockudoku"]
    if blocku:
        if sudoku:
            print(file=out)
        head = f"{'agent':<10} {'scoring':<10} {'cap':>7} {'games':>6} {'deaths':>7} {'rounds':>10} {'deaths/1000 rounds (95% CI)':>30} {'mean rounds':>12}"
        print(head, file=out)
        print("-" * len(head), file=out)
        for r in sorted(blocku, key=lambda r: (r["agent"], str(r["scoring"]))):
            lo, hi = r["ci_per_1000"]
            cap = "chain" if r["exposure"] else str(r["max_rounds"] or "-")
            print(f"{r['agent']:<10} {str(r['scoring'] or '-'):<10} {cap:>7} {r['games']:>6} "
                  f"{r['deaths']:>7} {r['rounds']:>10} {r['deaths_per_1000']:>12.4f} ({lo:.4f}-{hi:.4f}) {r['mean_rounds']:>12.1f}"
                  + (f"  ({r['failed_jobs']} failed jobs)" if r["failed_jobs"] else ""), file=out)
        for r in sorted(blocku, key=lambda r: (r["agent"], str(r["scoring"]))):
            if r["probes"]:
                mean, _, lo, hi = r["probe"]
                how = "exact over every deal" if r["probes"] == "exact" else f"{r['probes']} sampled deals per round"
                # A rate is not negative: the interval's low end is clipped at 0.
                print(f"{r['agent']}" + (f" ({r['scoring']})" if r["scoring"] else "")
                      + f": probe hazard {sci(mean)} per round ({fmt_ci(max(0.0, lo), hi, sci)}, "
                      f"Student's t over {r['units']} chains; {how})"
                      + (f"; {r['windows']} split windows" if r["windows"] is not None else "")
                      + (f"; entries at {', '.join(f'{l}: {n}' for l, n in zip(ENTRY_LEVELS, r['entries']))}"
                         if r.get("entries") is not None else ""), file=out)
        for exposure, burn_in in sorted({(r["exposure"], r["burn_in"] or 0) for r in blocku if r["exposure"]}):
            print(f"chain: units of {exposure} counted rounds, a new game after each death"
                  + (f", the first {burn_in} rounds of each game not counted" if burn_in else ""), file=out)
        lines = comparisons(rows, baseline)
        if lines:
            print(file=out)
            for line in lines:
                print(line, file=out)
