"""The dump: its records, where they live on disk, and reading them back.

Capture writes a dump and render reads one; both import this package and nothing
of each other. No torch, no jinja2: standard library only.

    model.py    the records (dataclasses), ``to_json`` / ``from_json``, the schema
    layout.py   the names of files and folders in a dump; ``write_json``
    load.py     ``load_dump``: the reader that trusts nothing it reads
    schema.json the records' JSON Schema, written out (a test keeps it current)
"""

from .layout import (
    DECOMPILER_PID,
    MANIFEST,
    PROCESSES,
    Layout,
    decompiler_pid_text,
    write_json,
)
from .load import WAIT_SECONDS, Dump, Problem, ProcessDump, load_dump, wait_for_decompiler
from .model import (
    FILE_RECORDS,
    SCHEMA_VERSION,
    STAGE_KINDS,
    CacheEntry,
    CodeView,
    Compile,
    CompiledGraph,
    DebugIndex,
    DebugSource,
    DynamicSymbol,
    FrameSummary,
    Function,
    GraphBreak,
    GraphStage,
    Guard,
    GuardFailure,
    GuardSet,
    Kernel,
    Manifest,
    NodeMappings,
    OutputCode,
    ResumePoint,
    SourceRegion,
    Specialization,
    SymbolGuard,
    Unavailable,
    ViewFile,
    compile_slug,
    from_json,
    json_schema,
    to_json,
)

__all__ = [
    "DECOMPILER_PID",
    "FILE_RECORDS",
    "MANIFEST",
    "PROCESSES",
    "SCHEMA_VERSION",
    "STAGE_KINDS",
    "WAIT_SECONDS",
    "CacheEntry",
    "CodeView",
    "Compile",
    "CompiledGraph",
    "DebugIndex",
    "DebugSource",
    "Dump",
    "DynamicSymbol",
    "FrameSummary",
    "Function",
    "GraphBreak",
    "GraphStage",
    "Guard",
    "GuardFailure",
    "GuardSet",
    "Kernel",
    "Layout",
    "Manifest",
    "NodeMappings",
    "OutputCode",
    "Problem",
    "ProcessDump",
    "ResumePoint",
    "SourceRegion",
    "Specialization",
    "SymbolGuard",
    "Unavailable",
    "ViewFile",
    "compile_slug",
    "decompiler_pid_text",
    "from_json",
    "json_schema",
    "load_dump",
    "to_json",
    "wait_for_decompiler",
    "write_json",
]
