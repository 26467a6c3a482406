"""depyf-report: see what torch.compile did to your code.

``import depyf_report`` stays light: torch, jinja2 and friends load only when the
part that needs them is used.
"""

from ._version import __version__

# ``capture`` and ``debug`` are each both a subpackage and a function users call.
# Importing the subpackage first and then binding the function keeps
# ``depyf_report.capture`` and ``depyf_report.debug`` the functions; neither
# subpackage imports torch until a capture starts.
from .capture import capture, show
from .debug import debug, install, prepare_debug, uninstall
from .decompiler import decompile
from .notebook import Report, load

__all__ = [
    "Report",
    "__version__",
    "capture",
    "debug",
    "decompile",
    "install",
    "load",
    "prepare_debug",
    "show",
    "uninstall",
]
