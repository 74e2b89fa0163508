"""The engines under load. 64 engine processes are started at once (32
`blockudoku`, 32 `sudoku-agent`), each answers 100 positions, and every answer is checked:

- legal: the engine's own `play` accepts the `bestmove` (the harness keeps no rules of its own);
  a `bestmove none` in Competitive Sudoku must be a legal pass (`play none` accepted);
- unchanged by the load: the processes come in pairs with the same seed, and with `Threads 1`
  at a node limit an engine answers deterministically, so both of a pair must give the same
  answers, position by position.

No timing is asserted: the timeouts only keep a hung engine from hanging the test.
"""
import concurrent.futures
import random
import threading

from engines import BlockudokuEngine, EngineProblem, SudokuEngine

PAIRS = 16  # per binary: 16 seeds x 2 copies x 2 binaries = 64 processes
POSITIONS = 100
TIMEOUT = 300.0  # seconds; a hang guard, not a timing check
SUDOKU_BOARDS = ((2, 2), (2, 3), (3, 3))
SUDOKU_MODES = ("classic", "rows", "border", "random")
SUDOKU_AGENTS = ("default", "seed", "greedy")


def blockudoku_worker(path, seed, barrier):
    """100 hands: search with a node limit, play the answer back, continue from the result."""
    engine = BlockudokuEngine([str(path)], startup_timeout=TIMEOUT)
    answers = []
    with engine:
        engine.setoption("Threads", 1)
        barrier.wait(timeout=TIMEOUT)
        rng = random.Random(seed)
        board = None
        for _ in range(POSITIONS):
            hand = [rng.randint(1, 47) for _ in range(3)]
            engine.position(board, hand)
            result = engine.go(nodes=400, timeout=TIMEOUT)
            if result.lost:
                answers.append(f"{board} {hand} none")
                board = None
                continue
            try:
                state = engine.play(result.placements)
            except EngineProblem as err:
                raise AssertionError(f"seed {seed}: bestmove {result.lines[-1]!r} refused by play: {err}") from None
            assert len(result.placements) == 3 and state.pieces == [None, None, None], (seed, result.lines[-1])
            answers.append(" ".join(str(p) for p in result.placements))
            board = state.board
    return answers


def sudoku_worker(path, seed, barrier):
    """Games on small boards in every mode; each position's bestmove is played back."""
    engine = SudokuEngine([str(path)], startup_timeout=TIMEOUT)
    answers = []
    rng = random.Random(seed)
    with engine:
        engine.setoption("Threads", 1)
        engine.setoption("Agent", SUDOKU_AGENTS[seed % len(SUDOKU_AGENTS)])
        engine.setoption("Seed", seed)
        barrier.wait(timeout=TIMEOUT)
        game_over = True
        while len(answers) < POSITIONS:
            if game_over:
                m, n = rng.choice(SUDOKU_BOARDS)
                mode = rng.choice(SUDOKU_MODES)
                engine.newgame()
                engine.position(m, n, "/".join(["." * (m * n)] * (m * n)), mode=mode)
                game_over = False
            result = engine.go(nodes=150, timeout=TIMEOUT)
            try:
                reply = engine.play(result.move) if result.move is not None else engine.play_none()
            except EngineProblem as err:
                raise AssertionError(f"seed {seed} ({m}x{n} {mode}): {result.lines[-1]!r} refused: {err}") from None
            answers.append(f"{result.move} {reply.outcome}")
            game_over = reply.result is not None
    return answers


def test_64_engines_at_once_answer_100_positions_each(blockudoku_bin, sudoku_bin):
    jobs = [(blockudoku_worker, blockudoku_bin, seed) for seed in range(PAIRS) for _ in range(2)]
    jobs += [(sudoku_worker, sudoku_bin, seed) for seed in range(PAIRS) for _ in range(2)]
    assert len(jobs) == 64
    barrier = threading.Barrier(len(jobs))  # every process is up before any searches
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = [pool.submit(fn, path, seed, barrier) for fn, path, seed in jobs]
        try:
            results = [f.result(timeout=2 * TIMEOUT) for f in futures]
        except BaseException:
            barrier.abort()
            raise
    by_key = {}
    for (fn, _, seed), answers in zip(jobs, results):
        assert len(answers) == POSITIONS
        by_key.setdefault((fn.__name__, seed), []).append(answers)
    for (name, seed), (first, second) in by_key.items():
        diff = next((k for k, (a, b) in enumerate(zip(first, second)) if a != b), None)
        assert diff is None, f"{name} seed {seed}: the two copies differ at position {diff}: {first[diff]} / {second[diff]}"
    # The games went somewhere: boards filled, moves made (not 100 trivial answers).
    blocku = [a for (name, _), runs in by_key.items() if name == "blockudoku_worker" for a in runs[0]]
    assert sum(a.count("@") for a in blocku) >= PAIRS * POSITIONS * 3 * 0.9
    sudoku = [a for (name, _), runs in by_key.items() if name == "sudoku_worker" for a in runs[0]]
    assert sum(a.endswith("placed") for a in sudoku) >= len(sudoku) // 2
