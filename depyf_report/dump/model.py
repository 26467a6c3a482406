"""The dump's records: the one contract between capture and render.

Capture fills these and writes them as JSON; render reads them back and never
needs torch. Every record is a plain dataclass of JSON-ready fields, so
``to_json`` / ``from_json`` need no per-class code. Which file holds which
record is ``layout.py``'s business (``FILE_RECORDS`` below names them for the
schema).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from dataclasses import dataclass, field

SCHEMA_VERSION = 4


@dataclass
class Unavailable:
    """An artifact that could not be captured, and why."""

    artifact: str
    reason: str


@dataclass
class Manifest:
    """Who made the dump, where, when, and whether it finished."""

    schema_version: int
    tool_version: str
    python_version: str
    torch_version: str | None
    platform: str
    argv: list[str]
    cwd: str
    pid: int
    started: str  # ISO 8601, UTC
    ended: str | None = None  # None while running or when the process was killed
    status: str = "running"  # running | complete | failed
    rank: int | None = None
    world_size: int | None = None
    process: str = ""  # this process's folder relative to the dump root; "" for the root
    parent_pid: int | None = None
    unavailable: list[Unavailable] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Dynamo's counters for this run (group -> name -> count), taken at the end.
    counters: dict[str, dict[str, int]] = field(default_factory=dict)
    # The interpreter's whole command line (sys.orig_argv); argv is the program's.
    command: list[str] = field(default_factory=list)


@dataclass
class CodeView:
    """One code object shown two ways: decompiled source, ``dis`` listing."""

    name: str
    decompiled: str | None = None
    decompile_error: str | None = None  # why ``decompiled`` is missing
    dis: str = ""
    # The ViewFile, relative to the process folder, that capture's decompiler
    # process writes this view to; the dump reader fills the view in from it.
    file: str | None = None

    def fill(self, view: ViewFile) -> None:
        self.decompiled, self.decompile_error, self.dis = view.decompiled, view.error, view.dis


@dataclass
class ViewFile:
    """A view as capture's decompiler process writes it, in a file of its own."""

    decompiled: str | None
    error: str | None
    dis: str


@dataclass
class Guard:
    """One guard expression, with the user source it protects when known."""

    expression: str
    kind: str = ""  # e.g. TENSOR_MATCH, TYPE_MATCH, SHAPE, as torch names it
    user_source: str | None = None  # e.g. "L['x']"
    filename: str | None = None
    line: int | None = None


@dataclass
class GuardSet:
    """Everything Dynamo checks before it reuses a cache entry."""

    tree: str  # the full guard tree as torch prints it, with source comments
    guards: list[Guard] = field(default_factory=list)
    shape_guards: list[str] = field(default_factory=list)


@dataclass
class CacheEntry:
    """One compiled version of a function: guards plus transformed code."""

    compile_id: str  # "frame/frame_compile[_attempt]", as torch prints it
    guards: GuardSet
    code: CodeView  # the transformed bytecode
    graphs: list[str] = field(default_factory=list)  # CompiledGraph ids it calls
    resume_functions: list[str] = field(default_factory=list)  # Function ids it calls


@dataclass
class ResumePoint:
    """Where a resume function picks up after a graph break."""

    parent: str | None  # id of the Function whose break created it
    break_line: int | None  # source line of the break
    resume_line: int | None  # source line where execution resumes
    offset: int | None = None  # bytecode offset in the original code
    original: str | None = None  # id of the user Function whose source it continues


@dataclass
class Function:
    """A code object Dynamo compiled: user code or a resume function."""

    id: str
    name: str  # co_name
    qualname: str
    filename: str
    first_line: int
    last_line: int
    source: str | None  # the source text of the function, captured at run time
    original: CodeView  # the code Dynamo was given
    resume: ResumePoint | None = None
    entries: list[CacheEntry] = field(default_factory=list)

    @property
    def is_resume(self) -> bool:
        return self.resume is not None


@dataclass
class FrameSummary:
    """One frame of a user stack."""

    filename: str
    line: int | None
    name: str
    code: str | None = None


@dataclass
class GraphBreak:
    """Why Dynamo stopped tracing, in torch's words, split into its parts."""

    reason: str  # the whole reason, without the "Graph break in user code at" line
    filename: str | None = None  # where the cause is: the innermost frame of user code
    line: int | None = None
    user_stack: list[FrameSummary] = field(default_factory=list)
    # The parts torch writes (see torch/_dynamo/graph_break_registry.json); None
    # for a reason in another form. A break inside a called function arrives
    # wrapped in "Encountered graph break when attempting to trace CALL ...":
    # these parts are the inner cause, ``wrapper`` that first line.
    gb_type: str | None = None  # e.g. "Data-dependent branching"
    explanation: str | None = None
    hints: list[str] = field(default_factory=list)
    context: str | None = None  # "Developer debug context"
    link: str | None = None  # the graph-break site page torch names, unchecked
    wrapper: str | None = None


@dataclass
class GuardFailure:
    """Why one earlier cache entry could not be reused: the guard that failed."""

    reason: str  # torch's whole text for this entry, stack trace included
    entry: str | None = None  # compile id of the cache entry whose guard failed
    guard: str = ""  # the failed check as torch states it, on one line
    kind: str = "other"  # size | value | other
    source: str | None = None  # the value checked, e.g. "L['x']"


@dataclass
class DynamicSymbol:
    """A symbolic size, such as ``s0``, and what it stands for."""

    name: str
    source: str | None = None  # e.g. "L['x'].size()[0]"
    lower: str | None = None
    upper: str | None = None
    hint: str | None = None
    unbacked: bool = False  # made for data (``.item()``, ``nonzero``), with no hint
    filename: str | None = None  # the user's line that made it
    line: int | None = None
    code: str | None = None


@dataclass
class SymbolGuard:
    """A condition on symbols torch added while tracing, e.g. ``Eq(2*s77, s15)``;
    an equality merges one symbol into the other."""

    expression: str  # in symbols, as torch prints it
    filename: str | None = None  # the user's line that made torch add it
    line: int | None = None
    code: str | None = None


@dataclass
class Specialization:
    """A symbol torch fixed to one value: the size is static after all."""

    symbol: str
    value: str
    sources: list[str] = field(default_factory=list)  # e.g. ["L['x'].size()[0]"]
    reason: str = ""  # torch's, e.g. "range_refined_to_singleton"
    filename: str | None = None
    line: int | None = None
    code: str | None = None


@dataclass
class Compile:
    """One compile attempt of one frame: what broke, what it built, how long."""

    id: str  # "0/0" or "0/0_1"
    frame_id: int
    frame_compile_id: int
    attempt: int = 0
    function: str | None = None  # Function id
    backend: str | None = None
    status: str = "ok"  # ok | failed | restarted
    failure: str | None = None
    graph_breaks: list[GraphBreak] = field(default_factory=list)
    # One text per earlier cache entry that failed its guards; a compile with
    # any is one recompile, however many entries failed.
    recompile_reasons: list[str] = field(default_factory=list)
    dynamic_symbols: list[DynamicSymbol] = field(default_factory=list)
    graphs: list[str] = field(default_factory=list)  # CompiledGraph ids
    metrics: dict[str, typing.Any] = field(default_factory=dict)  # times (s) and counters
    guard_failures: list[GuardFailure] = field(default_factory=list)  # one per reason
    failure_detail: GraphBreak | None = None  # ``failure`` split into torch's parts
    restart_reasons: list[str] = field(default_factory=list)  # why earlier attempts restarted
    symbol_guards: list[SymbolGuard] = field(default_factory=list)  # in the order added
    specializations: list[Specialization] = field(default_factory=list)


@dataclass
class GraphStage:
    """One form of a graph on its way to kernels."""

    kind: str  # one of STAGE_KINDS
    text: str


@dataclass
class Kernel:
    name: str
    language: str  # cpp | triton | python
    source: str


@dataclass
class NodeMappings:
    """Inductor's provenance for one output module: which graph nodes it made of what.

    Node names are as the graphs print them. A kernel is named as torch names it,
    with a ``:<n>`` handle that the output code repeats in a comment above the
    call (``# [Provenance debug handles] cpp_fused_abs_add_0:1``).
    """

    pre_to_post: dict[str, list[str]] = field(default_factory=dict)  # Dynamo node -> post-grad
    kernel_to_post: dict[str, list[str]] = field(default_factory=dict)  # kernel -> post-grad
    # kernel -> the stack traces of its nodes, as torch formats them ('  File "f.py", line 3')
    kernel_stacks: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class OutputCode:
    """The Python module Inductor writes for one part of a graph."""

    part: str  # forward | backward | inference
    source: str
    kernels: list[Kernel] = field(default_factory=list)
    # Recorded by capture since schema version 3; None: torch logged no mapping.
    provenance: NodeMappings | None = None


@dataclass
class SourceRegion:
    """A function of user code a graph's nodes come from, as its file read at capture.

    The compiled function's own source is its ``Function.source``; these are the
    others its nodes' stack traces name (a submodule's ``forward``, a helper).
    """

    filename: str
    qualname: str  # e.g. "LlamaAttention.forward"; "<module>" for module-level code
    first_line: int
    text: str


@dataclass
class CompiledGraph:
    """A ``__compiled_fn_*`` Dynamo extracted, with every stage that ran."""

    id: str
    name: str  # the name the transformed code calls, e.g. __compiled_fn_1
    compile_id: str
    function: str | None  # Function id
    backend: str | None = None
    stages: list[GraphStage] = field(default_factory=list)
    output_code: list[OutputCode] = field(default_factory=list)
    # Since schema version 4: the other user functions its nodes come from.
    sources: list[SourceRegion] = field(default_factory=list)


@dataclass
class DebugSource:
    """A file ``prepare_debug`` wrote, whose code runs in place of Dynamo's."""

    kind: str  # function (Dynamo's code for one compile) | graph (an FX forward)
    name: str  # co_name of the compiled function, or the graph file's stem
    compile_id: str | None
    file: str  # absolute path of the file the running code comes from
    line: int  # the first line of the body: where to set a breakpoint
    substituted: bool  # False: Dynamo's own code runs, see ``reason``
    reason: str | None = None
    original_file: str | None = None  # the user's source file of the function
    original_line: int | None = None


@dataclass
class DebugIndex:
    """Every file a ``prepare_debug`` capture wrote under ``debug/``."""

    sources: list[DebugSource] = field(default_factory=list)


# Graph stages in pipeline order; render shows them in this order.
STAGE_KINDS = (
    "dynamo",
    "pre_grad",
    "aot_joint",
    "aot_forward",
    "aot_backward",
    "aot_inference",
    "post_grad_forward",
    "post_grad_backward",
    "post_grad_inference",
)


def compile_slug(compile_id: str) -> str:
    """A file-name-safe form of a compile id: "0/1_2" -> "0-1-2"."""
    return re.sub(r"[^0-9A-Za-z]+", "-", compile_id).strip("-")


# --- JSON Schema -----------------------------------------------------------------

# The record stored in each kind of file (see layout.py); schema.json names them.
FILE_RECORDS = {
    "manifest.json": "Manifest",
    "functions/*.json": "Function",
    "compiles/*.json": "Compile",
    "graphs/*.json": "CompiledGraph",
    "debug/index.json": "DebugIndex",
    "views/*.json": "ViewFile",
}
# Fields whose strings come from a fixed set.
_ENUMS = {
    ("Manifest", "status"): ("running", "complete", "failed"),
    ("Compile", "status"): ("ok", "failed", "restarted"),
    ("GraphStage", "kind"): STAGE_KINDS,
    ("OutputCode", "part"): ("forward", "backward", "inference"),
}


def json_schema() -> dict:
    """The JSON Schema of every file in a dump, built from the records above.

    ``depyf_report/dump/schema.json`` is this, written out; a test keeps
    the two equal.
    """
    defs = {}
    pending = [Manifest, Function, Compile, CompiledGraph, DebugIndex, ViewFile]
    while pending:
        cls = pending.pop()
        if cls.__name__ not in defs:
            defs[cls.__name__] = _record_schema(cls, pending)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:depyf-report:dump:v{SCHEMA_VERSION}",
        "title": "depyf-report dump",
        "description": "Each file of a dump holds one record: "
        + ", ".join(f"{path} is a {name}" for path, name in FILE_RECORDS.items())
        + f". schema_version {SCHEMA_VERSION}.",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in FILE_RECORDS.values()],
        "$defs": dict(sorted(defs.items())),
    }


def _record_schema(cls, pending: list) -> dict:
    hints = _hints(cls)
    properties = {}
    for f in dataclasses.fields(cls):
        prop = _type_schema(hints[f.name], pending)
        choices = _ENUMS.get((cls.__name__, f.name))
        if choices:
            prop["enum"] = list(choices)
        properties[f.name] = prop
    required = [
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    doc = (cls.__doc__ or "").strip().splitlines()
    return {
        "type": "object",
        "description": doc[0] if doc else cls.__name__,
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _type_schema(tp, pending: list) -> dict:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in typing.get_args(tp) if arg is not type(None)]
        return {"anyOf": [_type_schema(inner, pending), {"type": "null"}]}
    if origin is list:
        (item,) = typing.get_args(tp)
        return {"type": "array", "items": _type_schema(item, pending)}
    if origin is dict:
        _, item = typing.get_args(tp)
        return {"type": "object", "additionalProperties": _type_schema(item, pending)}
    if dataclasses.is_dataclass(tp):
        pending.append(tp)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    if tp in _JSON_TYPES:
        return {"type": _JSON_TYPES[tp]}
    return {}  # typing.Any


# --- JSON conversion -----------------------------------------------------------


def to_json(record):
    """A record as JSON-ready data. (``dataclasses.asdict`` deep-copies every value it
    meets, which costs capture time while the user's program waits.)"""
    names = _field_names(type(record))
    if names is not None:
        return {name: to_json(getattr(record, name)) for name in names}
    if isinstance(record, (list, tuple)):
        return [to_json(value) for value in record]
    if isinstance(record, dict):
        return {key: to_json(value) for key, value in record.items()}
    return record


@functools.cache
def _field_names(cls) -> tuple[str, ...] | None:
    """The fields of a record class; None for any other type."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


def from_json(cls, data, problems: list[str] | None = None):
    """Rebuild a record of type ``cls`` from ``to_json`` data, checking every type.

    A dump may come from anywhere, so nothing is taken on trust. Unknown keys are
    ignored (a newer writer may add fields). A field that is missing or of the wrong
    kind takes its default, with a line saying so added to ``problems``; a list
    item of the wrong kind is dropped the same way. Where there is no default, the
    whole record is rejected with ``ValueError``.
    """
    return _convert(cls, data, problems if problems is not None else [], "")


class _Wrong(ValueError):
    """A value of the wrong kind; ``where`` is its path inside the record."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where.lstrip('.') or 'the record'}: {message}")


# Nested plain data (metrics) deeper than this is damage: nothing torch writes
# comes close, and render would need as many stack frames to show it.
MAX_DEPTH = 16
# Integers beyond 64 bits are damage too: no count, line or id comes near, and
# every other JSON reader would lose them.
_INT_LIMIT = 1 << 63


def _convert(tp, value, problems: list[str], where: str):
    kind, inner = _shape(tp)
    if kind is _SCALAR:
        if type(value) is tp and tp is not int:  # the common case, checked in one step
            return value if tp is not str or value.isascii() else _text(value)
        return _scalar(tp, value, where)
    if kind is _OPTIONAL:
        return None if value is None else _convert(inner, value, problems, where)
    if kind is _LIST:
        return _items(inner, _expect(value, list, where), problems, where)
    if kind is _DICT:
        entries = _expect(value, dict, where)
        return {
            _text(k): _convert(inner, v, problems, f"{where}[{k!r}]") for k, v in entries.items()
        }
    if kind is _RECORD:
        return _convert_record(tp, _expect(value, dict, where), problems, where)
    _check_plain(value, where)
    return value


_SCALAR, _OPTIONAL, _LIST, _DICT, _RECORD, _ANY = [
    "scalar",
    "optional",
    "list",
    "dict",
    "record",
    "any",
]


@functools.cache
def _shape(tp) -> tuple[str, object]:
    """What kind of value a field's type holds, and the type inside it: worked out
    once per type, as a large dump holds hundreds of thousands of values."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in typing.get_args(tp) if arg is not type(None)]
        return _OPTIONAL, inner
    if origin is list:
        return _LIST, typing.get_args(tp)[0]
    if origin is dict:
        return _DICT, typing.get_args(tp)[1]
    if dataclasses.is_dataclass(tp):
        return _RECORD, None
    return (_ANY, None) if tp is typing.Any else (_SCALAR, None)


def _items(item, values: list, problems: list[str], where: str) -> list:
    result = []
    for index, value in enumerate(values):
        try:
            result.append(_convert(item, value, problems, f"{where}[{index}]"))
        except _Wrong as wrong:
            problems.append(f"{wrong}; item dropped")
    return result


def _convert_record(cls, data: dict, problems: list[str], where: str):
    kwargs = {}
    for name, hint, required in _record_fields(cls):
        path = f"{where}.{name}"
        try:
            if name not in data:
                raise _Wrong(path, "missing")
            value = _convert(hint, data[name], problems, path)
            choices = _ENUMS.get((cls.__name__, name))
            if choices and value not in choices:
                raise _Wrong(path, f"{_shown(value)} is none of {', '.join(choices)}")
            kwargs[name] = value
        except _Wrong as wrong:
            if required:
                raise
            if name in data:  # a field a writer left out is no damage
                problems.append(f"{wrong}; the default is used")
    return cls(**kwargs)


@functools.cache
def _record_fields(cls) -> tuple[tuple[str, object, bool], ...]:
    """Each field of a record class: its name, its type, whether it is required."""
    hints = _hints(cls)
    return tuple(
        (
            f.name,
            hints[f.name],
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
    )


_JSON_NAMES = {type(None): "null", bool: "true/false", int: "an integer", float: "a number"}
_JSON_NAMES |= {str: "a string", list: "an array", dict: "an object"}


def _scalar(tp, value, where: str):
    # bool is an int in Python, not in JSON; an integer is a fine float if it fits.
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise _Wrong(where, "a number too large") from None
    if type(value) is not tp:
        expected = _JSON_NAMES.get(tp, tp.__name__)
        found = _JSON_NAMES.get(type(value), type(value).__name__)
        raise _Wrong(where, f"expected {expected}, found {found}")
    if tp is int and not -_INT_LIMIT <= value < _INT_LIMIT:
        raise _Wrong(where, "an integer too large")
    if tp is str:
        return _text(value)
    return value


def _text(value: str) -> str:
    """JSON can spell lone surrogates ("\\udc80"), which no page can be written in."""
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return value


def _expect(value, kind, where: str):
    if not isinstance(value, kind):
        return _scalar(kind, value, where)
    return value


def _check_plain(value, where: str, level: int = 0) -> None:
    """Free-form data (metrics): not too deep, and every integer a 64-bit one."""
    if isinstance(value, int) and not isinstance(value, bool):
        _scalar(int, value, where)
    elif isinstance(value, str) and _text(value) is not value:
        raise _Wrong(where, "a string that is not valid Unicode")
    elif isinstance(value, list | dict):
        if level >= MAX_DEPTH:
            raise _Wrong(where, f"nested deeper than {MAX_DEPTH} levels")
        children = [*value, *value.values()] if isinstance(value, dict) else value
        for child in children:
            _check_plain(child, where, level + 1)


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_HINTS: dict[type, dict] = {}


def _hints(cls) -> dict:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]
