"""The charts of batch_eval.py --plot DIR (PNG, matplotlib without a display): win rate per
opponent and board, the Blockudoku survival curve, and the running estimates over the units."""
from __future__ import annotations

import pathlib
from typing import Dict, List, Sequence, Tuple

from .stats import mean_interval, poisson_interval, wilson


def plot(rows: Sequence[Dict[str, object]], out_dir: pathlib.Path) -> List[pathlib.Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    sudoku = [r for r in rows if r["game"] == "sudoku" and r["games"]]
    if sudoku:
        boards = sorted({(r["board"], r["mode"]) for r in sudoku})
        fig, axes = plt.subplots(1, len(boards), figsize=(4.5 * len(boards), 4), squeeze=False)
        for ax, (board, mode) in zip(axes[0], boards):
            sel = [r for r in sudoku if r["board"] == board and r["mode"] == mode]
            labels = sorted({(r["agent"], r["movetime"]) for r in sel})
            opponents = sorted({r["opponent"] for r in sel})
            width = 0.8 / max(1, len(labels))
            for k, label in enumerate(labels):
                xs, ys, lo_err, hi_err = [], [], [], []
                for x, opp in enumerate(opponents):
                    match = [r for r in sel if (r["agent"], r["movetime"]) == label and r["opponent"] == opp]
                    if match:
                        r = match[0]
                        xs.append(x + (k - (len(labels) - 1) / 2) * width)
                        ys.append(100 * r["score"])
                        lo_err.append(100 * (r["score"] - r["ci"][0]))
                        hi_err.append(100 * (r["ci"][1] - r["score"]))
                ax.bar(xs, ys, width, yerr=[lo_err, hi_err], capsize=3, label=f"{label[0]} {label[1]} ms")
            ax.set_xticks(range(len(opponents)))
            ax.set_xticklabels([f"vs {o}" for o in opponents])
            ax.set_ylim(0, 105)
            ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
            ax.set_title(f"{board} {mode}")
            ax.set_ylabel("score % (95% CI)")
            ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        path = out_dir / "sudoku-winrate.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    # Chains the engine drove (probes) have no per-game lengths: no survival curve.
    blocku = [r for r in rows if r["game"] == "blockudoku" and r["game_lengths"]]
    if blocku:
        fig, ax = plt.subplots(figsize=(6, 4))
        for r in blocku:
            # Kaplan-Meier: games that reached the round cap alive are censored, not deaths.
            games = sorted(r["game_lengths"])
            alive, at_risk = 1.0, len(games)
            xs, ys = [0], [1.0]
            for rounds, died in games:
                if died and at_risk:
                    xs.append(rounds)
                    ys.append(alive)
                    alive *= (at_risk - 1) / at_risk
                    xs.append(rounds)
                    ys.append(alive)
                at_risk -= 1
            xs.append(max([g[0] for g in games] + [1]))
            ys.append(alive)
            ax.plot(xs, ys, label=f"{r['agent']}" + (f" ({r['scoring']})" if r["scoring"] else ""))
        ax.set_xlabel("rounds")
        ax.set_ylabel("fraction of games still alive")
        ax.set_ylim(0, 1.05)
        ax.set_title("Blockudoku survival (capped games censored)")
        ax.legend()
        fig.tight_layout()
        path = out_dir / "blockudoku-survival.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    written += plot_over_units(plt, rows, out_dir)
    written += plot_probe_over_units(plt, rows, out_dir)
    return written


def plot_probe_over_units(plt, rows: Sequence[Dict[str, object]], out_dir: pathlib.Path) -> List[pathlib.Path]:
    """Probe units: the probe hazard over the units (in seed and index order) with its 95% band."""
    sel = [r for r in rows if r["game"] == "blockudoku" and r.get("probes") and r["units"]]
    if not sel:
        return []
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in sel:
        xs, ys, los, his = [], [], [], []
        for i in range(2, len(r["unit_probes"]) + 1):
            mean, _, lo, hi = mean_interval(r["unit_probes"][:i])
            xs.append(i)
            ys.append(mean)
            los.append(max(0.0, lo))
            his.append(hi)
        line, = ax.plot(xs, ys, label=r["agent"] + (f" ({r['scoring']})" if r["scoring"] else ""))
        ax.fill_between(xs, los, his, color=line.get_color(), alpha=0.2)
    ax.set_xlabel("units (chains) done, in seed and index order")
    ax.set_ylabel("probe hazard per round (95% CI)")
    ax.set_ylim(bottom=0)
    ax.set_title("Blockudoku probe hazard over units")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "blockudoku-probe.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return [path]


def plot_over_units(plt, rows: Sequence[Dict[str, object]], out_dir: pathlib.Path) -> List[pathlib.Path]:
    """The running estimate over the units (in seed and index order) with its 95% band:
    Blockudoku hazard with the exact Poisson interval, Competitive Sudoku score with Wilson's."""
    written = []
    for game, name in (("blockudoku", "blockudoku-hazard.png"), ("sudoku", "sudoku-score.png")):
        sel = [r for r in rows if r["game"] == game and r["series"]]
        if not sel:
            continue
        fig = over_units_figure(plt, game, sel)
        path = out_dir / name
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def running_estimate(game: str, series) -> Tuple[List[int], List[float], List[float], List[float]]:
    """(units, estimate, band low, band high) after each unit of `series`: deaths per 1000
    rounds with the exact Poisson interval (Blockudoku), score % with Wilson's (sudoku)."""
    xs, ys, los, his = [], [], [], []
    num = den = 0.0
    for i, (a, b) in enumerate(series, 1):
        num, den = num + a, den + b
        if not den:
            continue
        if game == "blockudoku":
            lo, hi = poisson_interval(int(num))
            ys.append(1000 * num / den)
            los.append(1000 * lo / den)
            his.append(1000 * hi / den)
        else:
            lo, hi = wilson(num, int(den))
            ys.append(100 * num / den)
            los.append(100 * lo)
            his.append(100 * hi)
        xs.append(i)
    return xs, ys, los, his


def over_units_figure(plt, game: str, sel: Sequence[Dict[str, object]]):
    """One panel per series, one above the other on the same unit axis (bands drawn on one panel
    overlap into a blur), all on one scale so that they compare: the Blockudoku hazards from 0
    to the highest band, the sudoku scores from 0% to 100%. Each panel's title ends with its
    final estimate and band, so that a line flat at 100% (every game won) still says how sure
    it is."""
    from matplotlib.ticker import MaxNLocator

    ylabel = "deaths per 1000 rounds (95% CI)" if game == "blockudoku" else "score % (95% CI)"
    fig, axes = plt.subplots(len(sel), 1, figsize=(6, 0.8 + 2.2 * len(sel)), sharex=True, sharey=True,
                             squeeze=False)
    top = 0.0
    for ax, r in zip(axes[:, 0], sel):
        xs, ys, los, his = running_estimate(game, r["series"])
        if game == "blockudoku":
            label = r["agent"] + (f" ({r['scoring']})" if r["scoring"] else "")
        else:
            label = f"{r['agent']} vs {r['opponent']} {r['board']} {r['mode']} {r['movetime']} ms"
        if ys:
            label += f": {ys[-1]:.1f} ({los[-1]:.1f}-{his[-1]:.1f}) after {xs[-1]} units"
            top = max(top, max(his))
        line, = ax.plot(xs, ys, marker="." if len(xs) < 30 else None)
        ax.fill_between(xs, los, his, color=line.get_color(), alpha=0.25)
        ax.set_title(label, fontsize=9)
        ax.set_ylabel(ylabel, fontsize=8)
        if game == "sudoku":
            ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # units are counted, never halved
    # One scale for every panel (shared): a little room above the top, so a line at it shows.
    if game == "sudoku":
        axes[0, 0].set_ylim(-3, 103)
    else:
        axes[0, 0].set_ylim(0, 1.05 * top if top > 0 else 1.0)
    axes[-1, 0].set_xlabel("units (jobs) done, in seed and index order")
    fig.suptitle("Blockudoku hazard over units" if game == "blockudoku" else "Competitive Sudoku score over units",
                 fontsize=10)
    fig.tight_layout()
    return fig
