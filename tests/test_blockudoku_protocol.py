"""Replays protocol/blockudoku.md against the real `blockudoku` binary.

Every fenced `blockudoku-transcript` and `blockudoku-legacy` block is replayed line by line,
every row of the hostile-input table is sent and its exact reply checked, and a few
command-line and lifecycle rules are checked directly.
"""
import ast
import json
import pathlib
import queue
import re
import subprocess
import threading
import time

import pytest
from compliance import LOAD_SLACK_MS

DOC = pathlib.Path(__file__).resolve().parent.parent / "protocol" / "blockudoku.md"
TIMEOUT = 10.0


class Engine:
    """The engine process with a reader thread, so reads can time out."""

    def __init__(self, binary, args=()):
        self.proc = subprocess.Popen(
            [str(binary), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: "queue.Queue" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send_bytes(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, line: str):
        self.send_bytes(line.encode() + b"\n")

    def read(self, timeout=TIMEOUT):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail("engine did not answer in time")
        if line is None:
            pytest.fail(f"engine exited (code {self.proc.wait()})")
        return line

    def finish(self):
        """Closes stdin; returns (exit code, lines printed after that)."""
        self.proc.stdin.close()
        code = self.proc.wait(timeout=TIMEOUT)
        rest = []
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            if line is None:
                return code, rest
            rest.append(line)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()


def blocks(kind):
    text = DOC.read_text()
    found = re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)
    assert found, f"no {kind} block in {DOC}"
    return found


def replay(binary, block):
    with Engine(binary) as engine:
        for line in block.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("> "):
                engine.send(line[2:])
            elif line.startswith("<~ "):
                got = engine.read()
                assert re.fullmatch(line[3:], got), f"expected /{line[3:]}/, got {got!r}"
            elif line.startswith("< "):
                got = engine.read()
                assert got == line[2:], f"expected {line[2:]!r}, got {got!r}"
            else:
                pytest.fail(f"bad transcript line {line!r}")
        code, rest = engine.finish()
        assert code == 0
        assert rest == [], f"unexpected output after the transcript: {rest}"


@pytest.mark.parametrize("index", range(len(blocks("blockudoku-transcript"))))
def test_transcript(blockudoku_bin, index):
    replay(blockudoku_bin, blocks("blockudoku-transcript")[index])


@pytest.mark.parametrize("index", range(len(blocks("blockudoku-legacy"))))
def test_legacy_transcript(blockudoku_bin, index):
    replay(blockudoku_bin, blocks("blockudoku-legacy")[index])


def hostile_rows():
    text = DOC.read_text().split("## Error handling", 1)[1]
    rows = []
    for line in text.splitlines():
        m = re.fullmatch(r"\| (.+?) \| `(b\".*\")(?: \* (\d+))?` \| (.+) \|", line)
        if m:
            data = ast.literal_eval(m.group(2)) * int(m.group(3) or 1)
            reply = m.group(4)
            rows.append((m.group(1), data, None if reply == "(no reply)" else reply.strip("`")))
    assert len(rows) >= 20
    return rows


@pytest.mark.parametrize("case,data,reply", hostile_rows(), ids=[r[0] for r in hostile_rows()])
def test_hostile_input(blockudoku_bin, case, data, reply):
    with Engine(blockudoku_bin) as engine:
        engine.send("position empty pieces 28 8 1")
        engine.send_bytes(data + b"\n")
        engine.send("isready")
        expected = ([reply] if reply is not None else []) + ["readyok"]
        got = [engine.read() for _ in expected]
        assert got == expected
        # The position survived: the 2x2 square (slot 1) still fits at r1c1 of an empty board.
        engine.send("play 1@r1c1")
        assert engine.read().startswith("position board ##......./##......./")
        code, rest = engine.finish()
        assert code == 0 and rest == []


def test_go_with_empty_hand_is_an_error(blockudoku_bin):
    with Engine(blockudoku_bin) as engine:
        engine.send("newgame")
        engine.send("go")
        assert engine.read() == "error go: no pieces in hand: send position first"
        engine.send("position empty pieces 1")
        engine.send("play 1@r5c5")
        engine.read()
        engine.send("go nodes 10")
        assert engine.read() == "error go: no pieces in hand: send position first"
        assert engine.finish() == (0, [])


def test_score_and_streak_never_wrap(blockudoku_bin):
    with Engine(blockudoku_bin) as engine:
        # Values that could wrap when playing on are refused, naming the field and its range.
        engine.send("position empty pieces 1 score 18446744073709551615")
        assert engine.read() == "error position: score must be 0 to 9007199254740992, got '18446744073709551615'"
        engine.send("position empty pieces 1 streak 4294967295")
        assert engine.read() == "error position: streak must be 0 to 2147483647, got '4294967295'"
        engine.send("play 1@r1c1")
        assert engine.read() == "error play: '1@r1c1': slot 1 is not in the hand"
        # A play that would take them past the limits is refused, so a play reply is always a
        # valid position: the dot completes row 1 (18 for one region + 9 for the streak).
        engine.send("position board .########/" + "/".join(["........."] * 8) +
                    " pieces 1 score 9007199254740992 streak 2147483647")
        engine.send("play 1@r1c1")
        assert engine.read() == "error play: score would be 9007199254741019, more than 9007199254740992"
        engine.send("position board .########/" + "/".join(["........."] * 8) +
                    " pieces 1 1 score 9007199254740965 streak 2147483646")
        engine.send("play 1@r1c1")
        reply = engine.read()
        assert reply == ("position board " + "/".join(["........."] * 9) +
                         " pieces - 1 score 9007199254740992 streak 2147483647 cleared 1")
        engine.send(reply.rsplit(" cleared ", 1)[0])
        assert engine.finish() == (0, [])


def test_lines_sent_during_a_search_wait_for_its_bestmove(blockudoku_bin):
    # A bad line and a valid one during a search: the search's info and bestmove, then the
    # two answers in input order, then the readyok of the isready behind them (C7).
    with Engine(blockudoku_bin) as engine:
        engine.send("position empty pieces 33 34 35")
        engine.send("go movetime 300")
        engine.send("frobnicate")
        engine.send("play 1@r9c9")
        engine.send("isready")
        got = [engine.read() for _ in range(5)]
        assert got[0].startswith("info nodes ") and got[1].startswith("bestmove "), got
        assert got[2:] == ["error unknown command 'frobnicate'",
                           "error play: '1@r9c9': piece does not fit on the board there", "readyok"]
        assert engine.finish() == (0, [])


def test_infinite_with_movetime_answers_only_after_stop(blockudoku_bin):
    with Engine(blockudoku_bin) as engine:
        engine.send("position empty pieces 33 34 35")
        engine.send("go infinite movetime 50")
        time.sleep(0.4)
        engine.send("isready")
        assert engine.read() == "readyok"
        engine.send("stop")
        info = engine.read()
        assert engine.read().startswith("bestmove ")
        # `info time` counts from the go line, so it includes the wait for stop.
        ms = int(re.search(r" time (\d+)", info).group(1))
        assert ms >= 300, info  # well past movetime 50: the wait for stop counts
        assert engine.finish() == (0, [])


def test_selfplay_numbers_games_from_1_with_seed_1_by_default(blockudoku_lab_bin):
    args = [str(blockudoku_lab_bin), "selfplay", "--games", "2", "--max-rounds", "3"]
    default = subprocess.run(args, capture_output=True, text=True, timeout=60)
    seeded = subprocess.run([*args, "--seed", "1"], capture_output=True, text=True, timeout=60)
    assert default.returncode == 0, default.stderr
    lines = default.stdout.splitlines()
    assert lines[0] == "selfplay games 2 seed 1 scoring blockudoku threads 1"
    assert sorted(l.split()[1] for l in lines if l.startswith("game ")) == ["1", "2"]
    assert default.stdout.split("rounds per second")[0] == seeded.stdout.split("rounds per second")[0]


def test_stop_during_infinite_and_isready(blockudoku_bin):
    with Engine(blockudoku_bin) as engine:
        engine.send("position empty pieces 33 34 35")
        engine.send("go infinite")
        time.sleep(0.1)
        engine.send("isready")
        assert engine.read() == "readyok"
        engine.send("stop")
        assert engine.read().startswith("info nodes ")
        assert re.fullmatch(r"bestmove [1-3]@r\dc\d [1-3]@r\dc\d [1-3]@r\dc\d", engine.read())
        engine.send("stop")
        engine.send("isready")
        assert engine.read() == "readyok"
        assert engine.finish() == (0, [])


def test_movetime_is_honoured(blockudoku_bin):
    with Engine(blockudoku_bin) as engine:
        for pos in ("position empty pieces 33 34 35", "position empty pieces 1 2 3"):
            engine.send(pos)
            start = time.monotonic()
            engine.send("go movetime 100")
            engine.read()
            assert engine.read().startswith("bestmove ")
            elapsed = (time.monotonic() - start) * 1000
            assert elapsed < 100 + LOAD_SLACK_MS, f"{elapsed:.1f} ms for movetime 100"


def test_one_shot_piping_answers_line_for_line(blockudoku_bin):
    empty = "." * 81
    lines = [f"{empty} 1 2 3", f"{empty} 33 34 35", f"{'#' * 80}. 28 28 28", f"{empty.replace('.', '0')} ##/#."]
    proc = subprocess.run([str(blockudoku_bin)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=30)
    out = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert len(out) == 4 and all(l.startswith("bestmove ") for l in out), out
    assert out[2] == "bestmove none"
    assert re.fullmatch(r"bestmove 1@r\dc\d", out[3])


def test_selfplay_summary_and_jsonl(blockudoku_lab_bin, tmp_path):
    jsonl = tmp_path / "games.jsonl"
    args = ["selfplay", "--games", "3", "--seed", "5", "--max-rounds", "40", "--threads", "2", "--jsonl", str(jsonl)]
    first = subprocess.run([str(blockudoku_lab_bin), *args], capture_output=True, text=True, timeout=60)
    second = subprocess.run([str(blockudoku_lab_bin), *args[:-2]], capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    games = [l for l in first.stdout.splitlines() if l.startswith("game ")]
    assert len(games) == 3
    # Reproducible from the seed, whatever the thread scheduling (lines come in the order games
    # end, so compare them as sets), and so is the summary.
    assert sorted(games) == sorted(l for l in second.stdout.splitlines() if l.startswith("game "))
    kept = ("agent ", "deaths ", "mean ", "points ", "clears ")
    summary = [l for l in first.stdout.splitlines() if l.startswith(kept)]
    assert len(summary) == 5
    assert summary == [l for l in second.stdout.splitlines() if l.startswith(kept)]
    assert re.fullmatch(r"clears per round: 1 region [\d.]+, 2 regions [\d.]+, 3 regions [\d.]+, "
                        r"4 or more [\d.]+; in a streak [\d.]+", summary[4]), summary[4]
    assert re.search(r"deaths per 1000 rounds [\d.]+ \(95% CI [\d.]+ - [\d.]+\)", first.stdout)
    assert "rounds per second" in first.stdout and "points per round" in first.stdout
    records = [json.loads(l) for l in jsonl.read_text().splitlines()]
    assert sorted(r["game"] for r in records) == [1, 2, 3]
    assert all(len(r["clears"]) == 4 and 0 <= r["streak_clears"] <= sum(r["clears"]) for r in records)


def test_selfplay_chains_compare_and_jsonl(blockudoku_lab_bin, tmp_path):
    jsonl = tmp_path / "chains.jsonl"
    hard = pathlib.Path(__file__).resolve().parent.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    args = ["selfplay", "--games", "2", "--seed", "4", "--chain-rounds", "1000", "--burn-in", "10",
            "--probes", "exact", "--compare", "default,default", "--pieces", str(hard),
            "--threads", "2", "--jsonl", str(jsonl)]
    proc = subprocess.run([str(blockudoku_lab_bin), *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    chains = sorted(l for l in out if l.startswith("chain "))
    assert len(chains) == 4
    # The same agent on the same dealer seeds plays the same chains.
    assert chains[0] == chains[1] and chains[2] == chains[3]
    assert all(re.search(r" rounds 1000 deaths \d+ games \d+ points \d+ probe [\d.e-]+$", l) for l in chains)
    summaries = [l for l in out if not l.startswith(("selfplay ", "chain ", "rounds per second", "compare "))]
    assert len(summaries) == 14 and summaries[:7] == summaries[7:]
    assert summaries[6].startswith("clears per round: 1 region "), summaries[6]
    assert re.fullmatch(r"agent default scoring blockudoku chains 2 chain-rounds 1000 burn-in 10 deaths \d+ rounds 2000",
                        summaries[0])
    assert re.fullmatch(r"hazard \S+ per round \(95% CI \S+ - [\d.e-]+, exact Poisson\)", summaries[1])
    assert re.fullmatch(r"probe hazard [\d.e-]+ per round \(95% CI [\d.e-]+ - [\d.e-]+; exact over 34\^3 deals; "
                        r"standard error over 2 batches of 1000 rounds\)", summaries[3])
    entries = re.fullmatch(r"probe entries at 1\.00e-6: (\d+) \(([\d.]+) per 1000\), 1\.00e-5: (\d+) \([\d.]+ per 1000\), "
                           r"1\.00e-4: (\d+) \([\d.]+ per 1000\), 1\.00e-3: (\d+) \([\d.]+ per 1000\)", summaries[4])
    assert entries and abs(float(entries[2]) - int(entries[1]) / 2) < 0.001, summaries[4]
    ratio = [l for l in out if l.startswith("compare ")]
    assert re.fullmatch(r"compare default / default: hazard ratio (1\.000|n/a) \(95% CI [\d.]+ - ([\d.]+|inf), "
                        r"exact conditional on \d+ deaths\), p-value 1\.0000", ratio[0]), ratio
    records = [json.loads(l) for l in jsonl.read_text().splitlines()]
    assert sorted(r["chain"] for r in records) == [1, 1, 2, 2]
    assert all(r["rounds"] == 1000 and r["burn_in"] == 10 and r["probe"] >= 0 and r["agent"] == "default"
               and r["weighed"] is None and r["windows"] is None for r in records)
    # The records' entries add up to the summary's (each chain is in the file twice, once per agent).
    assert [sum(r["entries"][i] for r in records) for i in range(4)] == [2 * int(entries[i]) for i in (1, 3, 4, 5)]
    # The same agent on the same chains: every level either entered compares at ratio 1.
    entry_lines = [l for l in ratio if " entries at " in l]
    assert len(entry_lines) == sum(int(entries[i]) > 0 for i in (1, 3, 4, 5)), ratio
    assert all(re.fullmatch(r"compare default / default: entries at \S+ ratio 1\.000 \(95% CI .*p-value 1\.0000", l)
               for l in entry_lines), ratio
    # Both agents (the same) count the same clears on the same chains.
    assert all(len(r["clears"]) == 4 and 0 <= r["streak_clears"] <= sum(r["clears"]) for r in records)
    by_chain = {}
    for r in records:
        by_chain.setdefault(r["chain"], []).append((r["clears"], r["streak_clears"]))
    assert all(a == b for a, b in by_chain.values())


def test_selfplay_weight_overrides_change_play(blockudoku_lab_bin):
    hard = pathlib.Path(__file__).resolve().parent.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    base = [str(blockudoku_lab_bin), "selfplay", "--games", "2", "--seed", "3", "--max-rounds", "60", "--pieces", str(hard)]

    def games(*extra):
        proc = subprocess.run([*base, *extra], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return sorted(l for l in proc.stdout.splitlines() if l.startswith("game "))

    default = games()
    # Restating a default weight changes nothing; ignoring the board's shape changes the games.
    assert games("--weights", "cornered=6540") == default
    assert games("--weights", "ends=0,ends_aligned=0,cornered=0,squashed=0,squashed_edge=0,bar3=0") != default


def test_selfplay_compare_with_overrides_of_one_agent(blockudoku_lab_bin):
    # `A,B/name=value`: B's overrides are its own. Restating a default weight plays A's
    # chains; ignoring the board's shape plays other chains; --weights apply to both.
    hard = pathlib.Path(__file__).resolve().parent.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    base = [str(blockudoku_lab_bin), "selfplay", "--games", "2", "--seed", "5", "--chain-rounds", "400",
            "--pieces", str(hard), "--threads", "2"]

    def chains(compare, *extra):
        proc = subprocess.run([*base, "--compare", compare, *extra], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        lines = [l for l in proc.stdout.splitlines() if l.startswith("chain ")]
        heads = [l.split()[1] for l in proc.stdout.splitlines() if l.startswith("agent ")]
        a, b = heads
        tail = lambda name: sorted(l.split(f" agent {name} ")[1] for l in lines if f" agent {name} " in l)
        return heads, tail(a), tail(b)

    heads, a, b = chains("default,default/cornered=6540")
    assert heads == ["default", "default/cornered=6540"] and len(a) == 2 and a == b
    _, a, b = chains("default,default/ends=0/cornered=0/squashed=0/squashed_edge=0/bar3=0")
    assert a != b
    # With --weights ends=0 on both, B restating ends=0 plays the same chains as A.
    _, a2, b2 = chains("default,default/ends=0", "--weights", "ends=0")
    assert a2 == b2 and a2 != a


def test_selfplay_objective_points_compare(blockudoku_lab_bin):
    # Both objectives on the same chains: the points player scores its own lines differently
    # (different games), each summary names the player as given, and the chains replay.
    args = [str(blockudoku_lab_bin), "selfplay", "--games", "2", "--seed", "9", "--chain-rounds", "300",
            "--compare", "default,default:points", "--threads", "2"]
    runs = [subprocess.run(args, capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    chains = [sorted(l for l in r.stdout.splitlines() if l.startswith("chain ")) for r in runs]
    assert chains[0] == chains[1] and len(chains[0]) == 4
    survive = [l.split(" agent default ")[1] for l in chains[0] if " agent default " in l]
    points = [l.split(" agent default:points ")[1] for l in chains[0] if " agent default:points " in l]
    assert len(survive) == len(points) == 2 and survive != points
    heads = [l for l in runs[0].stdout.splitlines() if l.startswith("agent ")]
    assert [h.split()[1] for h in heads] == ["default", "default:points"]


def test_selfplay_with_piece_file(blockudoku_lab_bin, data_dir, tmp_path):
    woodoku = tmp_path / "woodoku.txt"
    woodoku.write_text("# catalogue plus the 4-cell diagonals\n" + "\n".join(str(i) for i in range(1, 48)) + "\n#.../.#../..#./...#\n...#/..#./.#../#...\n")
    for pieces in (data_dir / "blockudoku-pieces.txt", woodoku):
        proc = subprocess.run(
            [str(blockudoku_lab_bin), "selfplay", "--games", "1", "--seed", "2", "--max-rounds", "20", "--pieces", str(pieces)],
            capture_output=True, text=True, timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert "games 1" in proc.stdout


def test_bench_prints_a_stable_node_total(blockudoku_bin):
    outs = [subprocess.run([str(blockudoku_bin), "bench", "--nodes", "2000"], capture_output=True, text=True, timeout=60) for _ in range(2)]
    totals = [re.search(r"nodes (\d+) time \d+ ms nps \d+", o.stdout).group(1) for o in outs]
    assert totals[0] == totals[1]


def test_selfplay_strong_counts_weighed_answers(blockudoku_lab_bin, tmp_path):
    # The strong agent's chains count the answers its hand lookahead chose, and the split
    # windows opened on a board one of them left; an agent without a hand lookahead prints
    # no such line.
    hard = pathlib.Path(__file__).resolve().parent.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    jsonl = tmp_path / "chains.jsonl"
    args = ["selfplay", "--games", "2", "--seed", "5", "--chain-rounds", "400", "--burn-in", "10", "--probes", "exact",
            "--split", "4", "--pieces", str(hard), "--threads", "2"]
    strong = subprocess.run([str(blockudoku_lab_bin), *args, "--agent", "strong", "--jsonl", str(jsonl)],
                            capture_output=True, text=True, timeout=120)
    default = subprocess.run([str(blockudoku_lab_bin), *args, "--agent", "default"], capture_output=True, text=True,
                             timeout=120)
    assert strong.returncode == 0 and default.returncode == 0, strong.stderr + default.stderr
    line = [l for l in strong.stdout.splitlines() if l.startswith("weighed ")]
    assert len(line) == 1, strong.stdout
    m = re.fullmatch(r"weighed answers (\d+) of 800 measured rounds \(([\d.]+)%\); (\d+) of (\d+) windows opened "
                     r"on a board a weighed answer left", line[0])
    assert m, line[0]
    weighed, percent, after, windows = int(m[1]), float(m[2]), int(m[3]), int(m[4])
    # On the hard set crowded boards are everyday ones: some answers are weighed, not all.
    assert 0 < weighed < 800 and abs(percent - 100 * weighed / 800) < 0.01, line[0]
    split = re.search(r"opened at probe 1\.00e-3: (\d+) windows", strong.stdout)
    assert split and int(split[1]) == windows and 0 <= after <= windows, strong.stdout
    records = [json.loads(l) for l in jsonl.read_text().splitlines()]
    assert sum(r["weighed"] for r in records) == weighed
    assert sum(r["windows"] for r in records) == windows
    assert not any(l.startswith("weighed ") for l in default.stdout.splitlines()), default.stdout


def test_selfplay_split_windows_compare(blockudoku_lab_bin):
    # The same agent twice on the same chains opens the same split windows: the window ratio
    # is 1 and not significant; the games are those of the run without --split.
    hard = pathlib.Path(__file__).resolve().parent.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    args = ["selfplay", "--games", "2", "--seed", "5", "--chain-rounds", "1500", "--burn-in", "10",
            "--probes", "exact", "--compare", "default,default", "--pieces", str(hard), "--threads", "2"]
    plain = subprocess.run([str(blockudoku_lab_bin), *args], capture_output=True, text=True, timeout=120)
    split = subprocess.run([str(blockudoku_lab_bin), *args, "--split", "4"], capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0 and split.returncode == 0, plain.stderr + split.stderr
    windows = [l for l in split.stdout.splitlines() if l.startswith("split ")]
    assert len(windows) == 2 and windows[0] == windows[1], windows
    count = int(re.fullmatch(r"split 4 copies of 30-round windows opened at probe 1\.00e-3: (\d+) windows, "
                             r"\d+ branch rounds", windows[0]).group(1))
    assert count > 0, windows[0]
    ratio = [l for l in split.stdout.splitlines() if l.startswith("compare ")]
    assert re.fullmatch(rf"compare default / default: window ratio 1\.000 \(95% CI [\d.]+ - [\d.]+, exact "
                        rf"conditional on {2 * count} windows, taken as independent\), p-value 1\.0000", ratio[1]), ratio
    assert not any("window ratio" in l for l in plain.stdout.splitlines())
    chains = lambda out: sorted(l for l in out.splitlines() if l.startswith("chain "))
    # Deaths, games and points are the chains' own; only the probe column may differ.
    strip = lambda ls: [l.rsplit(" probe ", 1)[0] for l in ls]
    assert strip(chains(split.stdout)) == strip(chains(plain.stdout))


def test_selfplay_chain_agent_takes_overrides_after_slashes(blockudoku_lab_bin, tmp_path):
    # A chain run's --agent takes weight overrides after slashes, as --compare does: the
    # chains are those of --weights with the same values, named as given; without
    # --chain-rounds such a name is one clear error.
    hard = pathlib.Path(__file__).resolve().parent.parent / "crates" / "blockudoku" / "data" / "hard-pieces.txt"
    args = [str(blockudoku_lab_bin), "selfplay", "--games", "2", "--seed", "8", "--chain-rounds", "300", "--burn-in", "10",
            "--probes", "exact", "--pieces", str(hard)]
    slashed = subprocess.run([*args, "--agent", "default/nofit=36000/lookahead=2"], capture_output=True, text=True,
                             timeout=120)
    flags = subprocess.run([*args, "--agent", "default", "--weights", "nofit=36000", "--lookahead", "2"],
                           capture_output=True, text=True, timeout=120)
    plain = subprocess.run([*args, "--agent", "default"], capture_output=True, text=True, timeout=120)
    assert slashed.returncode == flags.returncode == plain.returncode == 0, slashed.stderr + flags.stderr
    chains = lambda p: sorted(l.split(" seed ", 1)[1] for l in p.stdout.splitlines() if l.startswith("chain "))
    assert chains(slashed) == chains(flags) != chains(plain)
    assert "agent default/nofit=36000/lookahead=2 scoring blockudoku chains 2" in slashed.stdout
    bad = subprocess.run([str(blockudoku_lab_bin), "selfplay", "--games", "1", "--seed", "1", "--agent",
                          "default/nofit=36000"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and bad.stderr.strip() == (
        'error: --agent "default/nofit=36000": overrides after slashes need --chain-rounds (use --weights)'), bad.stderr
