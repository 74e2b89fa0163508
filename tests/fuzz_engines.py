#!/usr/bin/env python3
"""End-to-end protocol fuzzer for both engines (the protocols' "hostile input" rules).

    python3 tests/fuzz_engines.py {blockudoku|sudoku} --seconds S [--seed N] [--bin PATH]

Starts the real binary, says `hello`, then for S seconds sends random input: token sequences
built from the protocol's grammar (commands, keywords, valid and invalid boards, pieces,
moves, cells, numbers, huge and negative numbers), random bytes (NUL, 0xff, CR, Unicode
whitespace, and now and then a line of up to 1 MB), mutated valid lines, and scenarios
(a position, a short search, then `play` of the returned bestmove). Searches are kept short:
every `go` that is not known to end within ~20 ms is followed by `stop`, and a `quit` token
is renamed so the process survives; now and then the fuzzer does test that `quit` or end of
input ends the process with exit code 0 (also during a search), and restarts it.

After each line (or small batch) it syncs: it sends `isready` and then a marker line
`zzsync<n>`, an unknown command whose `error` reply is unique, and waits for that reply under
a timeout (no reply in time = a hang). The last reply before the marker that is not search
output must be `readyok`. It checks that

- every reply line has one of the documented forms (REPLY_FORMS below, with the section of
  the protocol document each comes from) and is valid UTF-8 without control characters
  (a raw CR, VT, FS... in a reply would split it into two lines for many readers);
- each accepted `go` (and each blockudoku one-shot line) gives exactly one `bestmove`,
  a `stop` leaves no search running, `propose`/`info` only come while a search runs, and a
  blockudoku `info` is directly followed by its `bestmove`;
- a line gets at most one `error` line, and (sampled) a line answered by `error` alone
  leaves the `show` output unchanged;
- playing a returned bestmove is accepted (a bestmove is a legal move);
- the process never dies, exits with code 0 after `quit`/end of input, and its stderr never
  says "panicked".

On failure it prints the offending input (repr) and the replies and exits with code 1. The
last line is a summary, e.g.
`fuzz blockudoku: 123456 lines, 2345 searches, 600.0 s, seed 1, no failure`.
"""
import argparse
import os
import pathlib
import queue
import random
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN_DIR = pathlib.Path(os.environ.get("ENGINE_BIN_DIR", ROOT / "target" / "release"))
BINARIES = {"blockudoku": "blockudoku", "sudoku": "sudoku-agent"}

# How long one sync (isready + marker) may take before it counts as a hang. Generous: the
# fuzzer runs niced next to other jobs, and a search is never longer than ~20 ms or stopped.
HANG_SECONDS = 30.0

# ---------------------------------------------------------------------------------------
# Documented reply forms. Each regex must match a whole reply line.
# ---------------------------------------------------------------------------------------

def hello_forms(engine: str, protocol: str, options) -> dict:
    """The replies to `hello` and `isready`, alike in both protocols but for the engine's name,
    the protocol's name and its options (one regex per option line)."""
    return {
        "id name": rf"id name {engine}",
        "id version": r"id version \S+",
        "protocol": rf"protocol {protocol} 1",
        "option": "option name (?:" + "|".join(options) + ")",
        "hello ok": r"hello ok",
        "readyok": r"readyok",
    }


B_CELLS = r"[.#]{9}(?:/[.#]{9}){8}"
B_PIECE = r"(?:[1-9]|[1-3][0-9]|4[0-7]|[#.]{1,5}(?:/[#.]{1,5}){0,4})"
B_SLOTS = rf"(?:{B_PIECE}|-)(?: (?:{B_PIECE}|-)){{0,2}}"
B_PLACE = r"[1-3]@r[1-9]c[1-9]"
B_PLACES = rf"{B_PLACE}(?: {B_PLACE}){{0,2}}"

# protocol/blockudoku.md: "Commands to the engine" (reply column), "Replies from the engine",
# "Options" (option lines of `hello`).
BLOCKUDOKU_FORMS = {
    # `hello` (Commands to the engine), then `isready`
    **hello_forms("blockudoku", "blockudoku", [
        r"Threads type spin default \d+ min \d+ max \d+",
        r"Scoring type combo default \w+(?: var \w+)+",
        r"Agent type combo default \w+(?: var [\w-]+)+",
        r"Objective type combo default \w+(?: var \w+)+",
    ]),
    # Replies from the engine: `info`, `bestmove`, `error`
    "info": rf"info nodes \d+ nps \d+ time \d+(?: eval -?\d+ pv {B_PLACES})?"
    r"(?: stages \d+ candidates \d+ hands \d+)?",
    "bestmove": rf"bestmove (?:none|{B_PLACES})",
    "error": r"error .*\S.*",
    # `play`
    "position": rf"position board {B_CELLS} pieces {B_SLOTS} score \d+ streak \d+ cleared \d+",
    # `show`: a header, nine board rows, then the hand line
    "show header": r"   1 2 3 4 5 6 7 8 9",
    "show row": r"r[1-9](?: [.#]){9}",
    "show pieces": rf"pieces (?:none|{B_SLOTS}) score \d+ streak \d+",
    # `catalogue`: the 47 catalogue pieces as <id>:<shape>
    "catalogue": r"catalogue(?: \d{1,2}:[.#]+(?:/[.#]+)*){47}",
    # `eval`
    "eval": r"eval -?\d+ sq_center \d+ sq_side \d+ sq_corner \d+ box_center \d+ box_side \d+"
    r" box_corner \d+ ends \d+ ends_aligned \d+ cornered \d+ squashed \d+ squashed_edge \d+"
    r" bar3 \d+ nofit \d+ nofit_diag \d+ scarcity \d+ mobility \d+ learned -?\d+",
}

S_MOVE = r"\d+,\d+=\d+"
S_CELLS = r"(?:none|\d+,\d+(?: \d+,\d+)*)"
S_STATE = r"scores \d+ \d+ turn [12](?: result (?:1|2|draw))?"
S_CELL = r"[.1-9A-Z]"

# protocol/competitive-sudoku.md: "Replies from the agent" (and the `hello` transcript).
SUDOKU_FORMS = {
    **hello_forms("sudoku-agent", "competitive-sudoku", [
        r"Threads type spin default \d+ min 1 max 256",
        r"Agent type combo default \w+(?: var \w+)+",
        r"Seed type spin default \d+ min \d+ max \d+",
    ]),
    "propose": rf"propose {S_MOVE}",
    "info": rf"info depth \d+ nodes \d+ nps \d+ time \d+ score -?\d+(?: exact)? pv {S_MOVE}",
    "bestmove": rf"bestmove (?:none|{S_MOVE})",
    "played": rf"played {S_MOVE} (?:placed [0137]|taboo) {S_STATE}",
    "passed": rf"passed {S_STATE}",
    # `show`: board lines, the separator lines between blocks, rows, mode, allowed/playable
    "show board": rf"{S_CELL}(?: \|?{S_CELL})*",
    "show separator": r"-+(?:\+-+)*",
    "show rows": r"rows [.1-9A-Z+\-/]+",
    "show mode": rf"mode (?:classic|rows|border|random) {S_STATE} taboo (?:none|{S_MOVE}(?: {S_MOVE})*)",
    "show allowed": rf"allowed[12] {S_CELLS}",
    "show playable": rf"playable[12] {S_CELLS}",
    "error": r"error .*\S.*",
}

SEARCH_KINDS = {"info", "bestmove", "propose"}

# Characters that must never appear in a reply line: C0/C1 controls, DEL, and the Unicode
# line and paragraph separators (str.splitlines() breaks lines at all of them).
BAD_CHARS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

# Rust's str::split_whitespace (Unicode White_Space), which both engines use for tokens.
RUST_WS = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
RUST_WS += "\u2028\u2029\u202f\u205f\u3000"
RUST_WS_RE = re.compile("[" + re.escape(RUST_WS) + "]+")


def rust_tokens(data: bytes):
    text = data.decode("utf-8", "replace")
    return [t for t in RUST_WS_RE.split(text) if t]


class Failure(Exception):
    pass


class Hang(Failure):
    pass


# ---------------------------------------------------------------------------------------
# The engine process
# ---------------------------------------------------------------------------------------


class Engine:
    def __init__(self, path):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            cwd=str(ROOT),
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in iter(self.proc.stdout.readline, b""):
            self.lines.put(line)
        self.lines.put(None)

    def send(self, data: bytes):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise Failure(f"cannot write to the engine ({e}); exit code {self.proc.poll()}")

    def recv(self, deadline):
        """The next reply line (bytes, without the newline), or None at end of output."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise Hang("no reply in time")
        try:
            line = self.lines.get(timeout=left)
        except queue.Empty:
            raise Hang(f"no reply within {HANG_SECONDS:.0f} s")
        if line is None:
            self.lines.put(None)
            return None
        return line[:-1] if line.endswith(b"\n") else line

    def stderr_text(self):
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def close(self, timeout=None):
        """Closes stdin, waits for the exit; returns (exit code, remaining stdout lines)."""
        timeout = timeout or HANG_SECONDS
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Hang("the engine did not exit after end of input")
        rest = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.recv(deadline)
            if line is None:
                break
            rest.append(line)
        return code, rest

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------------------------------
# Random input, shared parts
# ---------------------------------------------------------------------------------------

SPECIAL_BYTES = b"\x00\x01\x7f\x80\xff\xfe\r\t \x0b\x0c\x1b\x1c\xc2\x85\xa0/.#,=@-+"
UNICODE_BITS = ["\u2028", "\u00a0", "\u3000", "\u0085", "é", "😀", "\ufeff", "\u200b"]


def number_token(rng):
    return rng.choice(
        [
            str(rng.randint(0, 9)),
            str(rng.randint(0, 100)),
            str(rng.randint(0, 10**6)),
            str(-rng.randint(1, 1000)),
            "-0",
            "+5",
            str(2**32),
            str(2**63),
            str(2**64 - 1),
            str(2**64),
            "9" * rng.randint(19, 40),
            "1e3",
            "0x10",
            "",
            "nan",
        ]
    )


def random_bytes(rng):
    r = rng.random()
    if r < 0.001:
        n = rng.randint(100_000, 1_000_000)
        kind = rng.randrange(3)
        if kind == 0:
            data = rng.randbytes(n)
        elif kind == 1:
            data = bytes([rng.randrange(32, 127)]) * n
        else:
            data = b" ".join([rng.choice([b"go", b"1", b"....", b"r1c1", b"#"])] * (n // 3))
    elif r < 0.4:
        data = rng.randbytes(rng.randint(0, 60))
    elif r < 0.7:
        data = bytes(rng.choice(SPECIAL_BYTES) for _ in range(rng.randint(0, 30)))
    else:
        parts = [rng.choice(UNICODE_BITS + ["a", " ", "1", "go", "\t"]) for _ in range(10)]
        data = "".join(parts).encode()
    return data.replace(b"\n", b" ")


def mutate(rng, data: bytes):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(5)
        pos = rng.randint(0, len(data))
        if op == 0 and data:
            del data[min(pos, len(data) - 1)]
        elif op == 1:
            data[pos:pos] = bytes([rng.choice(SPECIAL_BYTES)])
        elif op == 2 and data:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        elif op == 3:
            data = data[:pos]
        else:
            data[pos:pos] = rng.choice([b" ", b"  ", b"\t", b"\r", b"\x00", b"-", b"9999999999999999999999"])
    return bytes(data).replace(b"\n", b" ")


def join_tokens(rng, toks):
    if rng.random() < 0.9:
        return " ".join(toks)
    seps = [" ", "\t", "  ", " \t ", "\x0b", "\u3000", "\r"]
    return "".join(t + rng.choice(seps) for t in toks)


# ---------------------------------------------------------------------------------------
# Blockudoku grammar
# ---------------------------------------------------------------------------------------


def b_board(rng, valid=True):
    density = rng.choice([0.0, 0.1, 0.3, 0.5, 0.7, 0.9])
    filled, empty = rng.choice([("#", "."), ("1", "0"), ("#", "0")])
    cells = "".join(filled if rng.random() < density else empty for _ in range(81))
    if rng.random() < 0.5:
        cells = "/".join(cells[i : i + 9] for i in range(0, 81, 9))
    if valid:
        return cells
    bad = rng.randrange(6)
    if bad == 0:
        return cells[: rng.randint(0, len(cells) - 1)]
    if bad == 1:
        i = rng.randrange(len(cells))
        return cells[:i] + rng.choice("x2-@é\x00") + cells[i + 1 :]
    if bad == 2:
        return cells + "/........."
    if bad == 3:
        return cells + rng.choice(".#/")
    if bad == 4:
        return "/" * rng.randint(1, 12)
    return "." * rng.randint(0, 200)


def b_shape(rng, valid=False):
    h, w = (rng.randint(1, 5), rng.randint(1, 5)) if valid else (rng.randint(1, 6), rng.randint(1, 6))
    rows = ["".join(rng.choice("##.") for _ in range(w)) for _ in range(h)]
    if valid:
        rows[rng.randrange(h)] = "#" * w
    elif rng.random() < 0.1:
        rows[-1] = rows[-1][:-1] or "#"
    return "/".join(rows)


def b_piece(rng, valid=True):
    if valid:
        return str(rng.randint(1, 47)) if rng.random() < 0.8 else b_shape(rng, True)
    return rng.choice(
        [str(rng.randint(1, 47)), b_shape(rng), "-", "0", "48", number_token(rng), "./.", "#/#/#/#/#/#", "##/#", "...../....."]
    )


def b_place(rng, valid=True):
    if valid:
        return f"{rng.randint(1, 3)}@r{rng.randint(1, 9)}c{rng.randint(1, 9)}"
    return rng.choice(
        [
            f"{rng.randint(0, 4)}@r{rng.randint(0, 10)}c{rng.randint(0, 10)}",
            f"{rng.randint(1, 3)}@r{rng.randint(1, 9)}",
            "r1c1",
            "1@",
            "@",
            f"{number_token(rng)}@r1c1",
            f"1@r{number_token(rng)}c1",
            "1@R1C1",
        ]
    )


def b_position(rng, valid=True):
    toks = ["position"]
    r = rng.random()
    if r < 0.6:
        toks += ["board", b_board(rng, valid or rng.random() < 0.5)]
    elif r < 0.9:
        toks.append("empty")
    hand_len = rng.choice([1, 2, 3, 3, 3]) if valid else rng.randint(0, 4)
    hand = [b_piece(rng, valid or rng.random() < 0.5) for _ in range(hand_len)]
    if valid and len(hand) > 1 and rng.random() < 0.2:
        hand[rng.randrange(len(hand))] = "-"
    if valid or rng.random() < 0.9:
        toks.append("pieces")
    toks += hand
    if rng.random() < 0.5:
        toks += ["score", str(rng.randint(0, 5000)) if valid else number_token(rng)]
    if rng.random() < 0.5:
        toks += ["streak", str(rng.randint(0, 10)) if valid else number_token(rng)]
    if not valid and rng.random() < 0.3:
        rng.shuffle(toks)
    return toks


def b_go(rng):
    """A `go` line and whether it is known to end on its own within ~20 ms."""
    r = rng.random()
    if r < 0.15:
        return ["go"], True
    if r < 0.4:
        return ["go", "movetime", str(rng.randint(0, 20))], True
    if r < 0.6:
        return ["go", "nodes", str(rng.randint(1, 3000))], True
    if r < 0.7:
        return ["go", "nodes", str(rng.randint(1, 3000)), "movetime", str(rng.randint(0, 20))], True
    if r < 0.8:
        return ["go", "infinite"], False
    toks = ["go"]
    for _ in range(rng.randint(1, 4)):
        toks.append(rng.choice(["movetime", "nodes", "infinite", "depth", "wtime"]))
        if rng.random() < 0.8:
            toks.append(number_token(rng))
    return toks, False


B_WORDS = [
    "hello", "isready", "setoption", "name", "value", "newgame", "position", "board", "empty",
    "pieces", "score", "streak", "go", "movetime", "nodes", "infinite", "stop", "play", "show",
    "eval", "catalogue", "quit", "Threads", "Scoring", "Agent", "default", "seed", "classic", "squared",
    "blockudoku", "-", "none", "cleared",
]


def b_setoption(rng, valid=True):
    name = rng.choice(["Threads", "Scoring", "Agent", "Objective", "threads", "AGENT", "Hash"])
    values = {
        "Threads": [str(rng.randint(1, 4)), str(rng.randint(1, 64))],
        "Scoring": ["blockudoku", "classic", "squared"],
        "Agent": ["default", "seed"],
        "Objective": ["survive", "points"],
    }.get(name.capitalize() if name != "AGENT" else "Agent", ["1"])
    value = rng.choice(values) if valid else rng.choice(values + [number_token(rng), "best", "65", "0"])
    toks = ["setoption", "name", name, "value", value]
    if not valid:
        r = rng.random()
        if r < 0.3:
            toks = toks[: rng.randint(1, 5)]
        elif r < 0.5:
            toks.append(rng.choice(B_WORDS))
    return toks


def b_grammar_line(rng):
    """A line built from the grammar (may be valid or not): (tokens, is short go)."""
    r = rng.random()
    valid = rng.random() < 0.5
    if r < 0.25:
        return b_position(rng, valid), True
    if r < 0.35:
        return b_go(rng)
    if r < 0.5:
        toks = ["play"] + [b_place(rng, valid) for _ in range(rng.randint(0 if not valid else 1, 4 if not valid else 3))]
        return toks, True
    if r < 0.6:
        return b_setoption(rng, valid), True
    if r < 0.7:
        toks = [b_board(rng, valid)] + [b_piece(rng, valid) for _ in range(rng.randint(0, 4))]
        return toks, True
    if r < 0.8:
        toks = [rng.choice(["hello", "isready", "newgame", "show", "eval", "catalogue", "stop", "quit"])]
        if rng.random() < 0.3:
            toks.append(rng.choice(B_WORDS + [number_token(rng)]))
        return toks, True
    # Token soup from the grammar's words and values.
    pool = B_WORDS + [b_board(rng), b_piece(rng, False), b_place(rng, False), number_token(rng)]
    return [rng.choice(pool) for _ in range(rng.randint(1, 10))], False


# ---------------------------------------------------------------------------------------
# Competitive-sudoku grammar
# ---------------------------------------------------------------------------------------

S_SHAPES = [(m, n) for m in range(1, 6) for n in range(1, 6) if m * n <= 25]


# protocol/competitive-sudoku.md, "Errors and hostile input": `play` on a sparse large board.
UNDECIDED = "error play: taboo check too expensive: "


def s_symbol(v):
    return str(v) if v <= 9 else chr(ord("A") + v - 10)


def s_rows(rng, m, n, valid=True):
    """Rows of a position: a permuted pattern solution with cells blanked (always solvable)."""
    size = m * n
    perm = list(range(1, size + 1))
    rng.shuffle(perm)
    # Sparse 16x16 and 25x25 boards included: `play` decides taboo moves within a node budget
    # (protocol/competitive-sudoku.md, "Errors and hostile input").
    fill = rng.choice([0.0, 0.2, 0.5, 0.8, 0.95, 1.0])
    rows = []
    for r in range(size):
        row = ""
        for c in range(size):
            if rng.random() < fill:
                row += s_symbol(perm[(n * (r % m) + r // m + c) % size])
                row += rng.choice(["", "", "+", "-"])
            else:
                row += "."
        rows.append(row)
    text = "/".join(rows)
    if valid:
        return text
    bad = rng.randrange(5)
    if bad == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("?x0+-/.1ZÉ\x01") + text[i + 1 :]
    if bad == 1:
        return text + "/" + rows[0]
    if bad == 2:
        return text.rsplit("/", 1)[0]
    if bad == 3:
        return text.replace(".", s_symbol(rng.randint(1, size + 2)), 1)
    return rng.choice(["", "/", "+", "1-+", "." * rng.randint(0, 700)])


def s_move(rng, size, valid=True):
    if valid:
        return f"{rng.randrange(size)},{rng.randrange(size)}={rng.randint(1, size)}"
    return rng.choice(
        [
            f"{rng.randint(-1, size + 1)},{rng.randint(0, size + 1)}={rng.randint(0, size + 2)}",
            f"{rng.randrange(size)},{rng.randrange(size)}",
            f"{rng.randrange(size)},{rng.randrange(size)}={number_token(rng)}",
            f"{number_token(rng)},0=1",
            "=",
            ",=",
            "0,0=",
            "1;1=1",
        ]
    )


def s_cell(rng, size, valid=True):
    if valid:
        return f"{rng.randrange(size)},{rng.randrange(size)}"
    return rng.choice([f"{rng.randint(0, size + 3)},{rng.randint(0, size + 3)}", "0", ",", f"0,{number_token(rng)}"])


S_DATA_FILES = [
    "tests/data/sudoku-2x2-2022.txt",
    "tests/data/sudoku-2x3-2024-classic.txt",
    "tests/data/sudoku-3x3-2024-rows.txt",
    "tests/data/no-such-file.txt",
    ".",
    "/",
    "/dev/null",
    "/dev/zero",
    "README.md",
    "Cargo.toml",
]


def s_position(rng, valid=True):
    if rng.random() < 0.08:
        toks = ["position", "file", rng.choice(S_DATA_FILES)]
        if rng.random() < 0.3:
            toks += ["mode", rng.choice(["rows", "classic", "border"])]
        return toks
    m, n = rng.choice(S_SHAPES)
    if rng.random() < 0.6:
        m, n = rng.choice([(2, 2), (2, 3), (3, 2), (3, 3), (1, 1), (1, 2)])
    size = m * n
    shape = f"{m}x{n}"
    if not valid and rng.random() < 0.3:
        shape = rng.choice(["0x3", "6x5", "1x26", "x", "2x", "-1x2", f"{number_token(rng)}x2", "2X2", "2x2x2"])
    toks = ["position", shape, s_rows(rng, m, n, valid or rng.random() < 0.5)]
    mode = rng.choice(["classic", "classic", "rows", "border", "random", None])
    if mode and rng.random() < 0.7:
        toks += ["mode", mode]
    if rng.random() < 0.2:
        toks += ["turn", rng.choice(["1", "2"]) if valid else rng.choice(["0", "3", "1 2", number_token(rng)])]
    if rng.random() < 0.2:
        toks += ["scores", str(rng.randint(0, 50)), str(rng.randint(0, 50))]
        if not valid and rng.random() < 0.5:
            toks[-1] = number_token(rng)
    if rng.random() < 0.15:
        toks += ["taboo"] + [s_move(rng, size, valid) for _ in range(rng.randint(0, 3))]
    if mode not in (None, "classic") and rng.random() < 0.3:
        for key in ["allowed1", "allowed2"]:
            if rng.random() < 0.7:
                toks += [key] + [s_cell(rng, size, valid) for _ in range(rng.randint(0, 4))]
    if not valid and rng.random() < 0.2:
        toks.insert(rng.randint(1, len(toks)), rng.choice(S_WORDS))
    return toks


def s_go(rng):
    r = rng.random()
    if r < 0.3:
        return ["go", "movetime", str(rng.randint(0, 20))], True
    if r < 0.45:
        return ["go", "nodes", str(rng.randint(0, 2000)), "movetime", str(rng.randint(0, 20))], True
    if r < 0.55:
        return ["go", "depth", str(rng.randint(1, 3)), "movetime", str(rng.randint(0, 20))], True
    if r < 0.65:
        return ["go", "infinite"], False
    if r < 0.75:
        return ["go"], False  # 1000 ms by default: stopped early
    toks = ["go"]
    for _ in range(rng.randint(1, 4)):
        toks.append(rng.choice(["movetime", "nodes", "infinite", "depth", "sideways"]))
        if rng.random() < 0.8:
            toks.append(number_token(rng))
    return toks, False


S_WORDS = [
    "hello", "isready", "setoption", "name", "value", "newgame", "position", "file", "mode",
    "turn", "scores", "taboo", "allowed1", "allowed2", "classic", "rows", "border", "random",
    "go", "movetime", "nodes", "depth", "infinite", "stop", "play", "none", "show", "quit",
    "Threads", "Agent", "Seed", "greedy", "seed", "default", "2x2", "3x3", "1", "2",
]


def s_setoption(rng, valid=True):
    name = rng.choice(["Threads", "Agent", "Seed", "threads", "Hash"])
    values = {
        "Threads": [str(rng.randint(1, 4))],
        "Agent": ["random", "greedy", "seed", "default"],
        "Seed": [str(rng.randint(0, 2**64 - 1))],
    }.get(name, ["1"])
    value = rng.choice(values) if valid else rng.choice(values + [number_token(rng), "minimax", "256", "0"])
    toks = ["setoption", "name", name, "value", value]
    if not valid and rng.random() < 0.5:
        toks = toks[: rng.randint(1, 5)] if rng.random() < 0.6 else toks + [rng.choice(S_WORDS)]
    return toks


def s_grammar_line(rng):
    r = rng.random()
    valid = rng.random() < 0.5
    if r < 0.3:
        return s_position(rng, valid), True
    if r < 0.4:
        return s_go(rng)
    if r < 0.55:
        size = rng.choice([4, 9, 6, 1, 25])
        toks = ["play"]
        if rng.random() < 0.15:
            toks.append("none")
        else:
            toks += [s_move(rng, size, valid) for _ in range(1 if valid else rng.randint(0, 2))]
        return toks, True
    if r < 0.65:
        return s_setoption(rng, valid), True
    if r < 0.8:
        toks = [rng.choice(["hello", "isready", "newgame", "show", "stop", "quit"])]
        if rng.random() < 0.3:
            toks.append(rng.choice(S_WORDS + [number_token(rng)]))
        return toks, True
    pool = S_WORDS + [s_move(rng, 9, False), s_cell(rng, 4, False), number_token(rng), s_rows(rng, 2, 2)]
    return [rng.choice(pool) for _ in range(rng.randint(1, 10))], False


# ---------------------------------------------------------------------------------------
# The fuzzer
# ---------------------------------------------------------------------------------------


class Fuzzer:
    def __init__(self, kind, binary, seed, seconds, log=print):
        self.kind = kind
        self.binary = binary
        self.rng = random.Random(seed)
        self.seed = seed
        self.seconds = seconds
        self.log = log
        forms = BLOCKUDOKU_FORMS if kind == "blockudoku" else SUDOKU_FORMS
        self.forms = [(name, re.compile(rx)) for name, rx in forms.items()]
        self.lines_sent = 0
        self.searches = 0
        self.restarts = 0
        self.sync_no = 0
        self.outstanding = 0  # accepted searches whose bestmove has not come yet
        self.engine = None
        self.history = []  # recent (input, replies) for the failure report

    # -- reply checking ------------------------------------------------------------------

    def classify(self, raw: bytes):
        """The documented form a reply line has, or raises Failure."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Failure(f"reply is not UTF-8: {raw[:200]!r}")
        if BAD_CHARS.search(text):
            raise Failure(f"reply contains a control or line-separator character: {text[:300]!r}")
        for name, rx in self.forms:
            if rx.fullmatch(text):
                return name, text
        raise Failure(f"undocumented reply: {text[:300]!r}")

    def marker_reply(self, n):
        return f"error unknown command 'zzsync{n}'"

    # -- process handling ----------------------------------------------------------------

    def start(self):
        self.engine = Engine(self.binary)
        self.outstanding = 0
        self.engine.send(b"hello\n")
        got = []
        deadline = time.monotonic() + HANG_SECONDS
        while not got or got[-1][0] != "hello ok":
            raw = self.engine.recv(deadline)
            if raw is None:
                raise Failure(f"engine ended during the handshake after {got!r}")
            got.append(self.classify(raw))
            if len(got) > 20:
                break
        # Names, then one line per option (at least one), then `hello ok`.
        options = max(len(got) - 4, 1)
        expected = ["id name", "id version", "protocol"] + ["option"] * options + ["hello ok"]
        if [g[0] for g in got] != expected:
            raise Failure(f"handshake replies out of order: {[g[1] for g in got]!r}")
        self.sync([b"hello"], [g[1] for g in got])

    def check_stderr(self):
        err = self.engine.stderr_text()
        if "panicked" in err:
            raise Failure(f"stderr says panicked: {err[-2000:]}")

    # -- one batch -----------------------------------------------------------------------

    def sync(self, inputs, replies_so_far=()):
        """Sends isready + a marker, returns the reply texts before the sync's readyok."""
        self.sync_no += 1
        marker = self.marker_reply(self.sync_no)
        self.engine.send(b"isready\nzzsync%d\n" % self.sync_no)
        deadline = time.monotonic() + HANG_SECONDS
        replies = list(replies_so_far)
        kinds = []
        while True:
            try:
                raw = self.engine.recv(deadline)
            except Hang as e:
                self.history.append((inputs, replies))
                raise Hang(f"{e} (waiting for readyok and the sync marker)")
            if raw is None:
                self.history.append((inputs, replies))
                code = self.engine.proc.wait()
                raise Failure(f"the engine died (exit code {code}); stderr: {self.engine.stderr_text()[-2000:]}")
            text = raw.decode("utf-8", "replace")
            if text == marker:
                break
            replies.append(text)
            try:
                kinds.append(self.classify(raw)[0])
            except Failure:
                self.history.append((inputs, replies))
                raise
        self.history.append((inputs, replies))
        del self.history[:-8]
        own = [i for i, k in enumerate(kinds) if k not in SEARCH_KINDS]
        if not own or kinds[own[-1]] != "readyok":
            raise Failure("the sync isready got no readyok before the marker")
        del replies[own[-1] + len(replies_so_far)]
        del kinds[own[-1]]
        return replies, kinds

    def account(self, replies, kinds, started, stopped):
        """Search bookkeeping for one batch: `started` accepted searches, `stopped` if the
        batch ended with a `stop` (no search may be left running)."""
        self.outstanding += started
        if self.outstanding > 2:
            raise Failure(f"{self.outstanding} searches without a bestmove")
        for i, (text, kind) in enumerate(zip(replies, kinds)):
            if kind == "bestmove":
                if self.outstanding == 0:
                    raise Failure(f"a bestmove without a search: {text!r}")
                self.outstanding -= 1
                self.last_bestmove = text
            elif kind in ("info", "propose"):
                if self.outstanding == 0:
                    raise Failure(f"search output without a search: {text!r}")
                if self.kind == "blockudoku" and (i + 1 >= len(kinds) or kinds[i + 1] != "bestmove"):
                    raise Failure("an info line not followed by its bestmove")
        if self.outstanding > 1:
            raise Failure("a go never answered with bestmove")
        if stopped and self.outstanding:
            raise Failure("a search is still running after stop")

    def run_batch(self, items, started_if_ok=0, stop_after=False):
        """Sends input lines (bytes without newline); returns the replies."""
        for data in items:
            end = b"\r\n" if self.rng.random() < 0.05 else b"\n"
            self.engine.send(data + end)
            self.lines_sent += 1
        if stop_after:
            delay = self.rng.choice([0, 0, 0.001, 0.005, 0.02])
            if delay:
                time.sleep(delay)
            self.engine.send(b"stop\n")
            self.lines_sent += 1
        shown = list(items) + ([b"stop"] if stop_after else [])
        replies, kinds = self.sync(shown)
        errors = sum(k == "error" for k in kinds)
        if errors > len(items):
            raise Failure(f"{errors} error lines for {len(items)} input lines")
        started = started_if_ok if errors == 0 else 0
        self.searches += started
        self.account(replies, kinds, started, stop_after)
        return replies, kinds

    # -- what to send ----------------------------------------------------------------------

    def grammar_line(self):
        if self.kind == "blockudoku":
            return b_grammar_line(self.rng)
        return s_grammar_line(self.rng)

    def random_line(self):
        r = self.rng.random()
        if r < 0.55:
            toks, short = self.grammar_line()
            return join_tokens(self.rng, toks).encode(), short
        if r < 0.8:
            toks, _ = self.grammar_line()
            return mutate(self.rng, join_tokens(self.rng, toks).encode()), False
        return random_bytes(self.rng), False

    def is_oneshot(self, toks):
        return (
            self.kind == "blockudoku"
            and len(toks[0]) >= 9
            and all(c in ".#01/" for c in toks[0])
        )

    def fuzz_step(self):
        data, short = self.random_line()
        toks = rust_tokens(data)
        if toks == ["quit"]:
            data = data.replace(b"quit", b"quiz", 1)
            toks = ["quiz"]
        if toks and toks[0] == "go":
            self.run_batch([data], started_if_ok=1, stop_after=not short or self.rng.random() < 0.2)
            return
        if toks and self.is_oneshot(toks):
            self.run_batch([data], started_if_ok=1)
            return
        if toks and self.rng.random() < 0.05:
            # A bad line must change nothing: compare `show` before and after.
            before = self.state_lines()
            replies, kinds = self.run_batch([data])
            if kinds == ["error"]:
                after = self.state_lines()
                if after != before:
                    raise Failure(f"an error reply changed the state: {before!r} -> {after!r}")
            return
        batch = [data]
        while self.rng.random() < 0.3 and len(batch) < 5:
            more, _ = self.random_line()
            t = rust_tokens(more)
            if t and (t[0] in ("go", "quit") or self.is_oneshot(t)):
                break
            batch.append(more)
        self.run_batch(batch)

    def state_lines(self):
        replies, kinds = self.run_batch([b"show"])
        return [t for t, k in zip(replies, kinds) if k not in SEARCH_KINDS]

    def valid_position(self):
        if self.kind == "blockudoku":
            return " ".join(b_position(self.rng, True))
        m, n = self.rng.choice([(2, 2), (2, 2), (2, 3), (3, 2), (3, 3), (1, 2), (2, 4), (4, 4), (5, 5)])
        toks = ["position", f"{m}x{n}", s_rows(self.rng, m, n, True)]
        mode = self.rng.choice(["classic", "rows", "border", "random"])
        toks += ["mode", mode]
        return " ".join(toks)

    def scenario(self):
        """A position, a short search, then `play` of its bestmove, which must be accepted."""
        self.run_batch([self.valid_position().encode()])
        if self.kind == "blockudoku":
            go, short = b_go(self.rng)
            if not short or self.rng.random() < 0.3:
                go, short = ["go", "infinite"], False
        else:
            go, short = s_go(self.rng)
        self.last_bestmove = None
        _, kinds = self.run_batch([" ".join(go).encode()], started_if_ok=1, stop_after=not short)
        if "error" in kinds:
            return
        deadline = time.monotonic() + HANG_SECONDS
        while self.outstanding:
            if time.monotonic() > deadline:
                raise Hang(f"the search of {' '.join(go)!r} did not answer")
            time.sleep(0.005)
            self.run_batch([])
            if not self.history[-1][1]:
                del self.history[-1]  # keep the go line in the failure report
        best = self.last_bestmove.split()[1:]
        if best == ["none"]:
            if self.kind == "sudoku":
                replies, kinds = self.run_batch([b"play none"])
                if replies not in (["error play: the game is over"],) and kinds != ["passed"]:
                    raise Failure(f"after bestmove none, play none gave {replies!r}")
            return
        replies, kinds = self.run_batch([("play " + " ".join(best)).encode()])
        want = "position" if self.kind == "blockudoku" else "played"
        if self.kind == "sudoku" and len(replies) == 1 and replies[0].startswith(UNDECIDED):
            # Documented limit: on a sparse 16x16/25x25 board the referee's node budget may not
            # decide even a move of the agent's own solution; nothing changed, which the
            # next sync (isready after every line) and `show` lines still check.
            return
        if kinds != [want]:
            raise Failure(f"playing the bestmove {' '.join(best)!r} gave {replies!r}")

    def quit_test(self):
        """`quit` or end of input, maybe during a search: exit code 0, one bestmove."""
        r = self.rng.randrange(6)
        running = 0
        if r >= 3 and self.run_batch([self.valid_position().encode()])[1] == []:
            self.engine.send(self.rng.choice([b"go infinite\n", b"go movetime 20\n", b"go nodes 100000000\n"]))
            running = 1
        if r % 3 == 0:
            self.engine.send(self.rng.choice([b"quit\n", b"quit\r\n", b"  quit\t\n"]))
        elif r % 3 == 1:
            self.engine.send(b"quit")  # no line end, then end of input
        code, rest = self.engine.close()
        self.lines_sent += 2
        kinds = [self.classify(raw)[0] for raw in rest]
        if code != 0:
            raise Failure(f"exit code {code} after quit/end of input (case {r})")
        if kinds.count("bestmove") != self.outstanding + running:
            raise Failure(f"quit during a search: replies {rest!r}")
        self.check_stderr()
        self.restarts += 1
        self.start()

    # -- main loop -----------------------------------------------------------------------

    def run(self):
        start = time.monotonic()
        end = start + self.seconds
        try:
            self.start()
            while time.monotonic() < end:
                r = self.rng.random()
                if r < 0.001:
                    self.quit_test()
                elif r < 0.06:
                    self.scenario()
                else:
                    self.fuzz_step()
            self.run_batch([b"stop"], stop_after=False)
            if self.outstanding:
                raise Failure("a search still running at the end")
            self.quit_test_final()
        except Failure as e:
            self.report(e)
            return 1
        finally:
            if self.engine:
                self.engine.kill()
        elapsed = time.monotonic() - start
        self.log(
            f"fuzz {self.kind}: {self.lines_sent} lines, {self.searches} searches, "
            f"{self.restarts} restarts, {elapsed:.1f} s, seed {self.seed}, no failure"
        )
        return 0

    def quit_test_final(self):
        self.engine.send(b"quit\n")
        code, rest = self.engine.close()
        for raw in rest:
            self.classify(raw)
        if code != 0:
            raise Failure(f"exit code {code} after the final quit")
        self.check_stderr()

    def report(self, e):
        self.log(f"FAILURE ({self.kind}, seed {self.seed}, after {self.lines_sent} lines): {e}")
        for inputs, replies in self.history[-4:]:
            self.log("  input:")
            for data in inputs:
                self.log(f"    {data[:300]!r}{' ... (%d bytes)' % len(data) if len(data) > 300 else ''}")
            self.log("  replies:")
            for text in replies:
                self.log(f"    {text[:300]!r}")
        if self.engine:
            err = self.engine.stderr_text()
            if err:
                self.log(f"  stderr: {err[-2000:]!r}")
        self.log(f"fuzz {self.kind}: {self.lines_sent} lines, {self.searches} searches, seed {self.seed}, FAILED")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine", choices=sorted(BINARIES))
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", help="engine binary (default: $ENGINE_BIN_DIR or target/release)")
    ap.add_argument("--hang-seconds", type=float, default=HANG_SECONDS, help="reply timeout")
    args = ap.parse_args(argv)
    globals()["HANG_SECONDS"] = args.hang_seconds
    binary = pathlib.Path(args.bin) if args.bin else BIN_DIR / BINARIES[args.engine]
    if not binary.exists():
        print(f"{binary} is missing: run 'cargo build --release' first", file=sys.stderr)
        return 2
    return Fuzzer(args.engine, binary, args.seed, args.seconds, log=lambda s: print(s, flush=True)).run()


if __name__ == "__main__":
    sys.exit(main())
