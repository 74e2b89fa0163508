"""Each window opens sized from the screen it is on. Under an Xvfb of each screen size
(640x480, 800x600, 1366x768, 1920x1080) screen_probe.py opens the three windows as their
scripts do: each lies inside the screen (on 640x480 too, a little shorter than the 640x480 it
can otherwise be made), and every control is in the window or scrolled into reach; the board grows with the screen; no row or column label is cut,
the windows maximised on 1920x1080 included. Screenshots: tests/artifacts/screen-*.png."""
import json
import os
import shutil
import subprocess
import sys
import time

import pytest
from engine_testing import ARTIFACTS

PROBE = os.path.join(os.path.dirname(__file__), "screen_probe.py")
SCREENS = ((640, 480), (800, 600), (1366, 768), (1920, 1080))


def probe(width, height, maximise=False):
    """The probe's reports on a private Xvfb of that screen size."""
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        pytest.skip("no Xvfb")
    for number in range(140, 200):
        if not os.path.exists(f"/tmp/.X{number}-lock"):
            break
    server = subprocess.Popen([xvfb, f":{number}", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        env = dict(os.environ, DISPLAY=f":{number}")
        for _ in range(50):
            if os.path.exists(f"/tmp/.X11-unix/X{number}"):
                break
            time.sleep(0.1)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        run = subprocess.run([sys.executable, PROBE, str(ARTIFACTS)] + (["--maximise"] if maximise else []),
                             capture_output=True, text=True, timeout=180, env=env)
        assert run.returncode == 0, run.stderr[-2000:]
        return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_windows_open_sized_from_the_screen():
    boards = {}
    for width, height in SCREENS:
        reports = probe(width, height, maximise=(width, height) == (1920, 1080))
        assert len(reports) == (6 if width == 1920 else 3)
        for r in reports:
            name = f"{r['window']} on {width}x{height}" + (" maximised" if r["maximised"] else "")
            x, y, w, h = r["place"]
            if not r["maximised"]:
                assert x >= 0 and y >= 0 and x + w <= width and y + h <= height, f"{name}: {r['place']}"
            assert not r["out_of_reach"], f"{name}: out of reach {r['out_of_reach']}"
            assert not r["clipped_labels"], f"{name}: labels cut {r['clipped_labels']}"
            if not r["maximised"]:
                boards.setdefault(r["window"], []).append(r["board"])
    for window, sizes in boards.items():
        assert sizes[1] < sizes[2] < sizes[3], f"{window}: the board does not grow with the screen: {sizes}"
