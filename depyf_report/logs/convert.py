"""A TORCH_TRACE log -> a dump, through the same parsers and recorder capture uses.

Capture's ``Recorder`` turns structured-trace records into the dump's records while a
program runs; a log holds the same records, written down. So each log record goes to
a ``LogRecorder``: the recorder, less what only a live process has (code objects, the
live cache). What a log cannot hold is said in the manifest and on the pages, with
the command that records it.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

from .._version import __version__
from ..capture.functions import RESUME_PREFIX, safe_name
from ..capture.guards import parse_guard_tree
from ..capture.recorder import Recorder
from ..capture.writer import DumpWriter, prepare_directory, process_name
from ..dump import (
    PROCESSES,
    SCHEMA_VERSION,
    CacheEntry,
    CodeView,
    Compile,
    Function,
    GuardSet,
    Manifest,
    ResumePoint,
    Unavailable,
)
from .reader import LogFile, LogRecord, rank_from_name, read_records

CAPTURE_HINT = "depyf-report run -o dump/ -- python your_script.py"
NO_BYTECODE = (
    "a TORCH_TRACE log holds no bytecode, so the code Dynamo wrote for this cache entry "
    f"is not in it; to see it decompiled, capture the program: {CAPTURE_HINT}"
)
NO_SOURCE = (
    "a TORCH_TRACE log holds neither your source nor the bytecode Dynamo was given; "
    f"to see them, capture the program: {CAPTURE_HINT}"
)
# What a log never holds, as the manifest's "unavailable" list says it.
NOT_IN_LOGS = (
    Unavailable("transformed code", NO_BYTECODE),
    Unavailable("source and original bytecode", NO_SOURCE),
    Unavailable(
        "Dynamo's counters",
        "torch does not write its counters into the structured trace; "
        f"capture the program to record them: {CAPTURE_HINT}",
    ),
)
_RESUME_NAME = re.compile(rf"^{RESUME_PREFIX}(?P<fn>.+)_at_(?P<line>\d+)$")
_FRAME = re.compile(r"^(?P<frame>\d+)/")


class LogRecorder(Recorder):
    """Capture's recorder fed from a log: functions come from each compile's metrics
    (name, file, first line), cache entries from its guards, and no code is decompiled."""

    def __init__(self, writer: DumpWriter) -> None:
        super().__init__(writer, views=None)  # a log has no code objects to view
        self.by_frame: dict[int, str] = {}  # Dynamo's frame id -> Function id
        self.taken: set[str] = set()

    def _function_named(self, metrics: dict) -> str | None:
        """The function a finished compile compiled: one per Dynamo frame id."""
        frame = _frame_of(metrics.get("compile_id"))
        name, filename = metrics.get("co_name"), metrics.get("co_filename")
        if frame is None or not isinstance(name, str) or not isinstance(filename, str):
            return None
        if frame not in self.by_frame:
            line = metrics.get("co_firstlineno")
            function = self._new_function(name, filename, line if isinstance(line, int) else 0)
            self.by_frame[frame] = function.id
        return self.by_frame[frame]

    def _new_function(self, name: str, filename: str, line: int) -> Function:
        base = safe_name(name)
        function_id, n = base, 1
        while function_id in self.taken:
            n += 1
            function_id = f"{base}-{n}"
        self.taken.add(function_id)
        function = Function(
            id=function_id,
            name=name,
            qualname=name,  # the log names the code, not its qualified name
            filename=filename,
            first_line=line,
            last_line=line,
            source=None,
            original=CodeView(name=name, decompile_error=NO_SOURCE),
            resume=self._resume_point(name, filename),
        )
        self.functions[function_id] = function
        if function.resume is not None and function.resume.parent is not None:
            # The parent's latest cache entry is the one whose break made this function.
            entries = self.functions[function.resume.parent].entries
            if entries:
                entries[-1].resume_functions.append(function_id)
                self.writer.write_function(self.functions[function.resume.parent])
        self.writer.write_function(function)
        return function

    def _resume_point(self, name: str, filename: str) -> ResumePoint | None:
        match = _RESUME_NAME.match(name)
        if match is None:
            return None
        line = int(match["line"])
        candidates = [
            f
            for f in self.functions.values()
            if f.name == match["fn"] and f.filename == filename and f.first_line <= line
        ]
        parent = max(candidates, key=lambda f: f.first_line, default=None)
        if parent is None:
            return ResumePoint(parent=None, break_line=line, resume_line=None)
        # A resume function's own break continues the same user function.
        original = parent.resume.original if parent.resume else parent.id
        return ResumePoint(
            parent=parent.id,
            break_line=line,
            resume_line=None,  # the jump that says where is in the bytecode
            original=original,
        )

    def _add_entry(self, record: Compile) -> None:
        """The cache entry a successful compile installed: its guards, no code."""
        tree = self.guard_trees.pop(record.id, None)
        if record.function is None or record.status == "failed":
            return
        if tree is None and not record.metrics.get("has_guarded_code"):
            return
        function = self.functions[record.function]
        function.entries.append(
            CacheEntry(
                compile_id=record.id,
                guards=parse_guard_tree(tree) if tree is not None else GuardSet(tree=""),
                code=CodeView(name=function.name, decompile_error=NO_BYTECODE),
                graphs=list(record.graphs),
            )
        )
        self.writer.write_function(function)


def _frame_of(compile_id) -> int | None:
    match = _FRAME.match(compile_id) if isinstance(compile_id, str) else None
    return int(match["frame"]) if match else None


# --- one log file, one process of the dump ----------------------------------------


def convert_logs(paths: list[Path], dump_dir: Path) -> Path:
    """Write the dump of the log files ``paths`` (one per process) into ``dump_dir``.

    The first file is the dump's own process; each other one a process folder named
    after its rank (or process id), as capture names the ranks of a run.
    """
    dump_dir = Path(dump_dir)
    taken: set[str] = set()
    for index, path in enumerate(paths):
        log = LogFile(path, rank=rank_from_name(path))
        process = "" if index == 0 else _process_folder(log, path, taken)
        prepare_directory(dump_dir, process)
        _convert_one(log, dump_dir, process)
    return dump_dir


def _process_folder(log: LogFile, path: Path, taken: set[str]) -> str:
    name = process_name(log.rank) or f"log-{safe_name(path.stem)}"
    while name in taken:
        name += "-2"
    taken.add(name)
    return name


def _convert_one(log: LogFile, dump_dir: Path, process: str) -> None:
    manifest = _manifest(log, process)
    writer = DumpWriter(dump_dir, process, manifest)
    recorder = LogRecorder(writer)
    times: list[float] = []
    for record in read_records(log):
        _note_context(record, manifest, times)
        recorder.on_trace(record.metadata, record.payload)
    for compile_record in recorder.compiles.values():
        if compile_record.id not in recorder.finished:
            # The log ends inside this compile: what it had logged so far is kept.
            writer.write_compile(compile_record)
            for graph_id in compile_record.graphs:
                writer.write_graph(recorder.graphs[graph_id])
    manifest.pid = log.pid or 0
    manifest.rank = log.rank
    manifest.started = _iso(min(times)) if times else ""
    manifest.ended = _iso(max(times)) if times else None
    summary = log.summary()
    if summary:
        manifest.notes.append(summary)
    if not log.records:
        manifest.notes.append(f"{log.path.name}: holds no structured-trace record to show")
    writer.write_manifest()


def _manifest(log: LogFile, process: str) -> Manifest:
    return Manifest(
        schema_version=SCHEMA_VERSION,
        tool_version=__version__,
        python_version="unknown (not in the log)",
        torch_version=None,
        platform="unknown (not in the log)",
        argv=[],
        cwd="",
        pid=0,
        started="",
        status="complete",
        process=f"{PROCESSES}/{process}" if process else "",
        unavailable=list(NOT_IN_LOGS),
        notes=[f"converted from the TORCH_TRACE log {log.path.name} by depyf-report"],
    )


def _note_context(record: LogRecord, manifest: Manifest, times: list[float]) -> None:
    """What the manifest takes from the log: torch's version, when compiles ran."""
    metadata = record.metadata
    artifact = metadata.get("artifact")
    if isinstance(artifact, dict) and artifact.get("name") == "torch_version" and record.payload:
        try:
            version = json.loads(record.payload).get("pytorch_version")
        except (json.JSONDecodeError, AttributeError):
            version = None
        if isinstance(version, str):
            manifest.torch_version = version
    metrics = metadata.get("compilation_metrics")
    if isinstance(metrics, dict):
        start = metrics.get("start_time")
        duration = metrics.get("entire_frame_compile_time_s")
        if isinstance(start, int | float):
            times.append(start)
            if isinstance(duration, int | float):
                times.append(start + duration)


def _iso(seconds: float) -> str | None:
    try:
        moment = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.isoformat(timespec="milliseconds")
