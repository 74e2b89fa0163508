"""The `fits` question of protocol/blockudoku.md against the engine's own `play`.

A piece fits when some placement of it on the board is legal on its own; the engine's `fits`
answers that for each hand slot without a search. Here every answer is checked by trying the
piece at every cell with `play` on random boards: a `1` must have a placement `play` accepts,
a `0` none.
"""
import random

from engine_testing import real_engine

from engines import BlockudokuEngine, EngineError, Placement


def fits_words(engine):
    engine.send("fits")
    return engine.read_line(10, "fits").split()


def test_fits_agrees_with_play():
    rng = random.Random(7)
    with real_engine("blockudoku", BlockudokuEngine) as engine:
        seen = {"0": 0, "1": 0}
        for _ in range(40):
            density = rng.choice((0.3, 0.6, 0.8, 0.9))
            board = "".join("#" if rng.random() < density else "." for _ in range(81))
            if board.count(".") == 0:
                continue
            hand = [rng.randint(1, 47) for _ in range(3)]
            engine.position(board, hand)
            words = fits_words(engine)
            assert words[0] == "fits" and len(words) == 4, words
            for slot, word in enumerate(words[1:], 1):
                legal = False
                for row in range(1, 10):
                    for col in range(1, 10):
                        try:
                            engine.play([Placement(slot, row, col)])
                        except EngineError:
                            continue
                        legal = True
                        engine.position(board, hand)  # undo the accepted placement
                        break
                    if legal:
                        break
                assert word == ("1" if legal else "0"), (board, hand, slot, word)
                seen[word] += 1
        # The boards are crowded enough that both answers occur.
        assert seen["0"] > 5 and seen["1"] > 5, seen


def test_fits_played_slots_and_errors():
    with real_engine("blockudoku", BlockudokuEngine) as engine:
        engine.position(None, [None, 28, None])
        assert fits_words(engine) == ["fits", "-", "1", "-"]
        engine.newgame()
        assert fits_words(engine) == ["fits", "none"]
        engine.send("fits 1")
        assert engine.read_line(10, "fits 1").startswith("error fits:")
        assert engine.isready() >= 0  # the session goes on
