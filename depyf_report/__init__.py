"""depyf-report: see what torch.compile did to your code.

``import depyf_report`` stays light: torch, jinja2 and friends load only when the
part that needs them is used (see ``_LAZY``).
"""

from ._version import __version__

# ``capture`` is both a subpackage and the function users call. Importing the
# subpackage first and then binding the function keeps ``depyf_report.capture``
# the function; the subpackage itself imports torch only when a capture starts.
from .capture import capture
from .decompiler import decompile

# Public names whose modules import torch; loaded on first use.
_LAZY = {
    "prepare_debug": "depyf_report.debugger",
    "debug": "depyf_report.debugger",
    "install": "depyf_report.debugger",
    "uninstall": "depyf_report.debugger",
}

__all__ = ["__version__", "capture", "decompile", *_LAZY]


def __getattr__(name):
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'depyf_report' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
