"""A decompiler hang fails its test instead of stalling the whole run (no torch here)."""

import signal

import pytest

SECONDS_PER_TEST = 60


def _too_slow(signum, frame):
    raise TimeoutError(f"test still running after {SECONDS_PER_TEST} s: a hang is a bug")


@pytest.fixture(autouse=True)
def time_limit():
    previous = signal.signal(signal.SIGALRM, _too_slow)
    signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_TEST)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
