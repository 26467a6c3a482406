"""torch.compile -> dump. The only part of depyf-report that imports torch.

This module itself must stay torch-free: ``import depyf_report`` imports
``capture`` from here, and torch loads only when a capture starts.
"""


def capture(dump_dir):
    """Record every torch.compile activity inside the ``with`` block into ``dump_dir``."""
    raise NotImplementedError("capture is being written")


def run_script(dump_dir, argv):
    """Run ``python argv[0] argv[1:]`` in this process under capture; return its exit code."""
    raise NotImplementedError("capture is being written")
