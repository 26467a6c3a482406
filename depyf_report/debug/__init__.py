"""Running compiled code in a debugger, and readable bytecode logs.

    with depyf_report.prepare_debug("dump/"):
        f(x)              # Dynamo's code now runs from decompiled files in dump/debug/
    with depyf_report.debug():
        f(x)              # pdb pauses; set breakpoints in those files

``depyf_report.debug`` names the function above: ``depyf_report`` binds it after
importing this package, so import this package's modules with
``from depyf_report.debug import substitute``. This package must not import torch
at import time; capture's torch adapter loads when a function here is called.

    session.py      prepare_debug() and debug()
    substitute.py   Dynamo's code replaced by code compiled from decompiled files
    relayout.py     that code given the frame layout of the code it replaces
    graphs.py       FX graph code run from files, so a debugger stops in graphs
    bytecode_log.py install(): decompiled source in torch's bytecode log
"""

from .bytecode_log import install, uninstall
from .session import debug, prepare_debug

__all__ = ["debug", "install", "prepare_debug", "uninstall"]
