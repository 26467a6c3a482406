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
from ..capture import trace
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
    CompiledGraph,
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
DIS_ONLY = (
    "a TORCH_TRACE log holds this code's bytecode only as dis text (the listing below), "
    f"not as code to decompile; to see it decompiled, capture the program: {CAPTURE_HINT}"
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
# Dynamo logs a resume frame's bytecode, before and after, as dis text artifacts.
_BYTECODE_KINDS = {"_ORIGINAL_BYTECODE": "original", "_MODIFIED_BYTECODE": "modified"}


class LogRecorder(Recorder):
    """Capture's recorder fed from a log: functions come from each compile's metrics
    (name, file, first line), cache entries from its guards, and no code is decompiled."""

    def __init__(self, writer: DumpWriter) -> None:
        super().__init__(writer, views=None)  # a log has no code objects to view
        self.by_frame: dict[int, str] = {}  # Dynamo's frame id -> Function id
        self.taken: set[str] = set()
        self.listings: dict[tuple[str, str], str] = {}  # (compile id, which) -> dis text
        self.script: str | None = None  # the file the program ran, as its stack shows

    def on_trace(self, metadata: dict, payload: str | None) -> None:
        super().on_trace(metadata, payload)
        record = trace.trace_record(metadata, payload)
        if record is not None and record.kind == "dynamo_start" and self.script is None:
            self.script = self._script(record.meta.get("stack"))
        if record is None or record.compile_id is None or payload is None:
            return
        for suffix, which in _BYTECODE_KINDS.items():
            if record.kind.endswith(suffix):
                self.listings[(record.compile_id, which)] = payload

    def _script(self, stack) -> str | None:
        """The script's file: the outermost frame of a compile's stack, a module's body."""
        first = stack[0] if isinstance(stack, list) and stack else None
        if not isinstance(first, dict) or first.get("name") != "<module>":
            return None
        return self.strings.get(first.get("filename"))

    def _function_named(self, metrics: dict) -> str | None:
        """The function a finished compile compiled: one per Dynamo frame id."""
        frame = _frame_of(metrics.get("compile_id"))
        name, filename = metrics.get("co_name"), metrics.get("co_filename")
        if frame is None or not isinstance(name, str) or not isinstance(filename, str):
            return None
        if frame not in self.by_frame:
            line = metrics.get("co_firstlineno")
            function = self._new_function(name, filename, line if isinstance(line, int) else 0)
            listing = self.listings.get((str(metrics["compile_id"]), "original"))
            if listing is not None:
                function.original.dis = listing
                if function.resume is not None:
                    function.resume.resume_line = resume_line(listing)
                self.writer.write_function(function)
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
        )
        self.functions[function_id] = function
        self._resume_point(function)
        self.writer.write_function(function)
        return function

    def _resume_point(self, function: Function) -> None:
        """A resume function's parent: the function whose compile broke at the line its
        name gives (a frame of the break's stack, for a break in a called function)."""
        match = _RESUME_NAME.match(function.name)
        if match is None:
            return
        line = int(match["line"])
        broke = self._compile_broken_at(match["fn"], function.filename, line)
        parent = self.functions[self.by_frame[broke.frame_id]] if broke else None
        if parent is None:  # no break logged there: the function of that name
            candidates = [
                f
                for f in self.functions.values()
                if f.name == match["fn"] and f.filename == function.filename
                if f.first_line <= line and f is not function
            ]
            parent = max(candidates, key=lambda f: f.first_line, default=None)
        # resume_line comes from the dis listing, when the log has one.
        function.resume = ResumePoint(parent=None, break_line=line, resume_line=None)
        if parent is None:
            return
        function.resume.parent = parent.id
        # A resume function's own break continues the same user function.
        function.resume.original = parent.resume.original if parent.resume else parent.id
        # The parent's cache entry whose compile broke there is the one that calls it.
        entries = [e for e in parent.entries if broke is None or _same_compile(e, broke)]
        if entries:
            entries[-1].resume_functions.append(function.id)
            self.writer.write_function(parent)

    def _compile_broken_at(self, name: str, filename: str, line: int) -> Compile | None:
        """The latest compile of function ``name`` (or of one of its resume functions)
        with a graph break at this line; a restarted attempt holds the break, its
        frame says whose it was."""
        for record in reversed(self.compiles.values()):
            function = self.functions.get(self.by_frame.get(record.frame_id, ""))
            if function is None or _user_name(function.name) != name:
                continue
            for graph_break in record.graph_breaks:
                frames = [(graph_break.filename, graph_break.line)]
                frames += [(f.filename, f.line) for f in graph_break.user_stack]
                if (filename, line) in frames:
                    return record
        return None

    def _write_graph(self, graph: CompiledGraph) -> None:
        # The log is all that is read: capture reads the user's files named in a graph
        # while the program runs; a log may come from another machine, or anyone.
        self.writer.write_graph(graph)

    def _add_entry(self, record: Compile) -> None:
        """The cache entry a successful compile installed: its guards, no code."""
        tree = self.guard_trees.pop(record.id, None)
        if record.function is None or record.status == "failed":
            return
        # torch's has_guarded_code is true for a frame it skipped too (a resume
        # function that breaks on its first call installs nothing); guard_count is
        # only there when guards were built.
        if tree is None and record.metrics.get("guard_count") is None:
            return
        function = self.functions[record.function]
        listing = self.listings.get((record.id, "modified"))
        code = CodeView(name=function.name, decompile_error=NO_BYTECODE)
        if listing is not None:
            code.dis, code.decompile_error = listing, DIS_ONLY
        function.entries.append(
            CacheEntry(
                compile_id=record.id,
                guards=parse_guard_tree(tree) if tree is not None else GuardSet(tree=""),
                code=code,
                graphs=list(record.graphs),
            )
        )
        self.writer.write_function(function)


# One instruction of a dis listing (3.10-3.12): [line] [>>] offset OPNAME [arg] [(repr)].
_INSTRUCTION = re.compile(
    r"^\s*(?P<line>\d+)?\s+(?:>>)?\s*(?P<offset>\d+) (?P<op>[A-Z_]+)(?P<rest>.*)$"
)
_JUMP_TARGET = re.compile(r"\(to (?P<target>\d+)\)")


def resume_line(listing: str) -> int | None:
    """Where a resume function continues: the line of its first jump's target (the
    prologue's jump to the instruction that was about to run when the graph broke)."""
    line, lines, target = None, {}, None
    for text in listing.splitlines():
        found = _INSTRUCTION.match(text)
        if found is None:
            continue
        if found["line"]:
            line = int(found["line"])
        lines[int(found["offset"])] = line
        jump = _JUMP_TARGET.search(found["rest"]) if "JUMP" in found["op"] else None
        if target is None and jump is not None:
            target = int(jump["target"])
    return lines.get(target) if target is not None else None


def _user_name(name: str) -> str:
    """The name of the user's function a function is, or resumes."""
    match = _RESUME_NAME.match(name)
    return match["fn"] if match else name


def _same_compile(entry: CacheEntry, record: Compile) -> bool:
    """Whether the entry is of the compile ``record`` is an attempt of."""
    return entry.compile_id.partition("_")[0] == record.id.partition("_")[0]


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
    unfinished = [c for c in recorder.compiles.values() if c.id not in recorder.finished]
    for compile_record in unfinished:
        # The log ends inside this compile: what it had logged so far is kept.
        writer.write_compile(compile_record)
        for graph_id in compile_record.graphs:
            writer.write_graph(recorder.graphs[graph_id])
    if unfinished:
        manifest.notes.append(
            f"the log ends before compile {', '.join(c.id for c in unfinished)} finished "
            "(no compilation metrics): what it logged until then is shown"
        )
    if recorder.script is not None:
        manifest.argv = [recorder.script]
        manifest.notes.append(
            f"the program ran {recorder.script}; its arguments are not in the log"
        )
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
