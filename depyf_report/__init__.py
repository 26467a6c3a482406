"""depyf-report: see what torch.compile did to your code.

``import depyf_report`` stays light: torch, jinja2 and friends load only when the
part that needs them is used (see ``_LAZY``).
"""

from ._version import __version__
from .decompiler import decompile

# Public names that live in modules importing torch; loaded on first use.
_LAZY = {
    "capture": "depyf_report.capture",
    "prepare_debug": "depyf_report.debug",
    "debug": "depyf_report.debug",
    "install": "depyf_report.debug",
    "uninstall": "depyf_report.debug",
}

__all__ = ["__version__", "decompile", *_LAZY]


def __getattr__(name):
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'depyf_report' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
