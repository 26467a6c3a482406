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


def _user_handler(calls: list):
    signal.signal(signal.SIGTERM, lambda signum, frame: calls.append(("user", signum)))


def test_sigterm_closes_then_runs_the_previous_handler(restore_sigterm):
    calls = []
    _user_handler(calls)
    assert ending.CloseOnSigterm(lambda: calls.append("close")).install() is None
    os.kill(os.getpid(), signal.SIGTERM)
    assert calls == ["close", ("user", signal.SIGTERM)]
    os.kill(os.getpid(), signal.SIGTERM)  # the user's handler is back in place
    assert calls[2:] == [("user", signal.SIGTERM)]


def test_a_sigterm_during_a_close_acts_once_the_close_is_done(restore_sigterm):
    # A pool worker closes from its exit hook when the pool's stop message comes,
    # and SIGTERM may follow at once: it must not end the write halfway.
    calls = []
    _user_handler(calls)
    closer = ending.CloseOnSigterm(lambda: calls.append("second close"))
    assert closer.install() is None
    with closer.finishing():
        os.kill(os.getpid(), signal.SIGTERM)
        calls.append("close done")
    assert calls == ["close done", ("user", signal.SIGTERM)]


def test_installing_twice_keeps_the_first_previous_handler(restore_sigterm):
    calls = []
    _user_handler(calls)
    closer = ending.CloseOnSigterm(lambda: calls.append("close"))
    assert closer.install() is None
    assert closer.install() is None  # as in a forked worker of a forked worker
    os.kill(os.getpid(), signal.SIGTERM)
    assert calls == ["close", ("user", signal.SIGTERM)]


def test_an_ignored_sigterm_stays_ignored(restore_sigterm):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    assert ending.CloseOnSigterm(lambda: None).install() is None
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN


def test_outside_the_main_thread_it_says_why_not(restore_sigterm):
    answers = []
    closer = ending.CloseOnSigterm(print)
    thread = threading.Thread(target=lambda: answers.append(closer.install()))
    thread.start()
    thread.join()
    assert answers == [
        "its first compile ran outside the main thread, where Python cannot add a handler"
    ]
