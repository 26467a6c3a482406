"""The SIGTERM handler that closes a terminated worker's dump, in this process."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from depyf_report.capture import ending


@pytest.fixture
def restore_sigterm():
    before = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, before)


def test_sigterm_closes_then_runs_the_previous_handler(restore_sigterm):
    calls = []
    signal.signal(signal.SIGTERM, lambda signum, frame: calls.append(("user", signum)))
    assert ending.close_on_sigterm(lambda: calls.append("close")) is None
    os.kill(os.getpid(), signal.SIGTERM)
    assert calls == ["close", ("user", signal.SIGTERM)]
    os.kill(os.getpid(), signal.SIGTERM)  # the user's handler is back in place
    assert calls[2:] == [("user", signal.SIGTERM)]


def test_an_ignored_sigterm_stays_ignored(restore_sigterm):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    assert ending.close_on_sigterm(lambda: None) is None
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN


def test_outside_the_main_thread_it_says_why_not(restore_sigterm):
    answers = []
    thread = threading.Thread(target=lambda: answers.append(ending.close_on_sigterm(print)))
    thread.start()
    thread.join()
    assert answers == [
        "its first compile ran outside the main thread, where Python cannot add a handler"
    ]
