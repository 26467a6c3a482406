"""TORCH_TRACE logs -> dump: render a log written without depyf-report.

    depyf-report TRACE -o SITE        TRACE: a TORCH_TRACE directory or one log file

``reader`` reads records out of a log file, ``sources`` finds the log files of a
path, and ``convert`` feeds the records to capture's own parsers and recorder, so
the dump (and the site) is the one a capture would give, less what a log lacks.
Standard library only: a log renders where torch is not installed.
"""

from .convert import convert_logs
from .sources import is_trace_log, log_files

__all__ = ["convert_logs", "is_trace_log", "log_files"]
