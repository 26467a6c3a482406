"""torch.compile -> dump. The only part of depyf-report that imports torch.

    with depyf_report.capture("dump/"):
        train()

``depyf_report.capture`` names the context manager below: ``depyf_report``
binds it after importing this package, so import this package's modules with
``from depyf_report.capture import session``. This module must not import torch.
"""

from __future__ import annotations

import contextlib

from ..notebook import Report
from .cached import show
from .runner import run_script
from .session import CaptureSession

__all__ = ["capture", "run_script", "show"]


@contextlib.contextmanager
def capture(dump_dir):
    """Record every ``torch.compile`` activity in the block into ``dump_dir``.

    The directory must be new or empty. It holds a complete dump on exit, also
    when the block raises; if the process dies, what was compiled so far is
    already on disk. Decompiled views are written by a process of their own,
    which may finish a moment after the block; reading the dump waits for it.

    Gives a ``Report``: in a notebook it displays the report; anywhere else it
    stands for the dump's folder.
    """
    session = CaptureSession(dump_dir)
    session.open()
    failed = True
    try:
        yield Report(session.root)
        failed = False
    except SystemExit as leaving:
        failed = leaving.code not in (None, 0)  # sys.exit() inside the block is a success
        raise
    finally:
        session.close(failed=failed)
