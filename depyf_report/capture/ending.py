"""Closing a forked worker's dump when it is stopped with SIGTERM.

``Pool.terminate()`` (and so the end of a ``with Pool(...)`` block) stops its
workers with SIGTERM, whose default action ends the process at once: no atexit
hook and no ``multiprocessing`` finalizer runs. A handler chained in front of
the previous one closes the manifest first, then lets SIGTERM do exactly what it
did before, so the program sees no difference.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable


def close_on_sigterm(close: Callable[[], None]) -> str | None:
    """Call ``close()`` when SIGTERM arrives, then act as before; or say why not."""
    if threading.current_thread() is not threading.main_thread():
        return "its first compile ran outside the main thread, where Python cannot add a handler"
    previous = signal.getsignal(signal.SIGTERM)
    if previous is None:
        return "its SIGTERM handler was installed outside Python and cannot be chained"
    if previous == signal.SIG_IGN:
        return None  # the worker ignores SIGTERM, so SIGTERM never ends it

    def on_sigterm(signum, frame) -> None:
        # Restore first: a second SIGTERM, or one sent from close(), acts as before.
        signal.signal(signal.SIGTERM, previous)
        with contextlib.suppress(Exception):  # never stop the program ending as it would
            close()
        if callable(previous):
            previous(signum, frame)
        else:  # SIG_DFL: end by the same signal, so the parent sees the same exit code
            os.kill(os.getpid(), signum)

    signal.signal(signal.SIGTERM, on_sigterm)
    return None
