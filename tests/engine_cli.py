"""The check both engines' command lines share: a bad invocation fails in one line."""
import subprocess


def run_failing_cli(binary, args) -> subprocess.CompletedProcess:
    """Runs `binary args`, which must fail: a non-zero exit and exactly one line on stderr,
    not a panic. Returns the finished process for further checks."""
    proc = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=30)
    assert proc.returncode != 0
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "panicked" not in proc.stderr
    return proc
