"""torch.compile -> dump. The only part of depyf-report that imports torch.

    with depyf_report.capture("dump/"):
        train()

``depyf_report.capture`` is both this package and the context manager: the
package is callable, so ``depyf_report.capture(dir)`` works however it was
imported first.
"""

from __future__ import annotations

import contextlib
import sys
import types

from .runner import run_script
from .session import CaptureSession

__all__ = ["capture", "run_script"]


@contextlib.contextmanager
def capture(dump_dir):
    """Record every ``torch.compile`` activity in the block into ``dump_dir``.

    The directory must be new or empty. It holds a complete dump on exit, also
    when the block raises; if the process dies, what was compiled so far is
    already on disk.
    """
    session = CaptureSession(dump_dir)
    session.open()
    failed = True
    try:
        yield session.root
        failed = False
    finally:
        session.close(failed=failed)


class _CallablePackage(types.ModuleType):
    def __call__(self, dump_dir):
        return capture(dump_dir)


sys.modules[__name__].__class__ = _CallablePackage
