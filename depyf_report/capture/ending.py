"""Closing a worker's dump when it is stopped with SIGTERM.

``Pool.terminate()`` (and so the end of a ``with Pool(...)`` block) stops its
workers with SIGTERM, whose default action ends the process at once: no atexit
hook and no ``multiprocessing`` finalizer runs. A handler chained in front of
the previous one closes the manifest first, then lets SIGTERM do exactly what it
did before, so the program sees no difference.

A worker may be closing its dump on its own, from its exit hook, when SIGTERM
arrives (the pool sends its workers a stop message and SIGTERM one after the
other). Acting at once would end the process halfway through writing the
manifest, so the signal waits until that close is done.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator


class CloseOnSigterm:
    """Call ``close()`` when SIGTERM arrives, then let SIGTERM act as before."""

    def __init__(self, close: Callable[[], None]) -> None:
        self.close = close
        self.previous = None  # SIGTERM's handler before ours, once ours is installed
        self.closing = False
        self.held: tuple | None = None  # (signum, frame) of a SIGTERM that came during a close

    def install(self) -> str | None:
        """Chain the handler in front of the previous one; or say why it cannot be."""
        if threading.current_thread() is not threading.main_thread():
            return (
                "its first compile ran outside the main thread, where Python cannot add a handler"
            )
        previous = signal.getsignal(signal.SIGTERM)
        if previous is None:
            return "its SIGTERM handler was installed outside Python and cannot be chained"
        if previous == self._on_sigterm:  # a forked worker's own worker inherits it
            return None
        if previous != signal.SIG_IGN:  # an ignored SIGTERM never ends the worker
            self.previous = previous
            signal.signal(signal.SIGTERM, self._on_sigterm)
        return None

    @contextlib.contextmanager
    def finishing(self) -> Iterator[None]:
        """Run a close that a SIGTERM arriving meanwhile must not cut short."""
        self.closing = True
        try:
            yield
        finally:
            self.closing = False
            if self.held is not None:
                signum, frame = self.held
                self.held = None
                self._act_as_before(signum, frame)

    def _on_sigterm(self, signum, frame) -> None:
        # Restore first: a second SIGTERM, or one sent from close(), acts as before.
        signal.signal(signal.SIGTERM, self.previous)
        if self.closing:  # it interrupted a close: act once that is done
            self.held = signum, frame
            return
        with contextlib.suppress(Exception):  # never stop the program ending as it would
            self.close()
        self._act_as_before(signum, frame)

    def _act_as_before(self, signum, frame) -> None:
        if callable(self.previous):
            self.previous(signum, frame)
        else:  # SIG_DFL: end by the same signal, so the parent sees the same exit code
            os.kill(os.getpid(), signum)
