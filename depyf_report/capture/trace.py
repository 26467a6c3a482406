"""Structured-trace records -> facts about compiles, one small parser per kind.

Torch's structured trace (the ``torch.__trace`` logger) sends one record per
artifact: its kind is the metadata key (``dynamo_output_graph``, ...) or, for
``artifact`` records, the artifact's name. A parser turns one record into a
list of facts; the recorder applies them and only the writer touches files,
so tests can check the parsers on recorded payloads alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..dump import (
    DynamicSymbol,
    FrameSummary,
    GraphBreak,
    OutputCode,
    Specialization,
    SymbolGuard,
)
from .adapter import format_compile_id
from .kernels import parse_output_code
from .provenance import kernel_stacks, node_mappings

# Metadata keys that say which compile a record belongs to, not what it is.
_CONTEXT_KEYS = {
    "frame_id",
    "frame_compile_id",
    "attempt",
    "has_payload",
    "rank",
    "compiled_autograd_id",
    "subgraph_name",
    "stack",
}


@dataclass(frozen=True)
class TraceRecord:
    kind: str
    compile_id: str | None
    meta: dict
    payload: str | None


def trace_record(metadata: dict, payload: str | None) -> TraceRecord | None:
    keys = [key for key in metadata if key not in _CONTEXT_KEYS]
    if not keys:
        return None
    kind = keys[0]
    meta = metadata[kind] if isinstance(metadata[kind], dict) else {}
    if kind == "str" and isinstance(metadata[kind], list | tuple) and len(metadata[kind]) == 2:
        meta = {"text": metadata[kind][0], "index": metadata[kind][1]}
    if kind == "artifact":
        kind = str(meta.get("name", "artifact"))
    compile_id = None
    if metadata.get("frame_id") is not None:
        compile_id = format_compile_id(
            metadata["frame_id"], metadata.get("frame_compile_id"), metadata.get("attempt")
        )
    return TraceRecord(kind, compile_id, meta, payload)


# --- facts ---------------------------------------------------------------------


@dataclass
class CompileStarted:
    compile_id: str


@dataclass
class GraphTraced:
    """Dynamo extracted a new FX graph: the first stage of a CompiledGraph."""

    compile_id: str
    text: str


@dataclass
class StageTraced:
    compile_id: str
    kind: str  # a model.STAGE_KINDS entry
    text: str


@dataclass
class PostGradTraced:
    """A post-grad graph; whether forward or backward shows in the output code after it."""

    compile_id: str
    text: str


@dataclass
class OutputCodeWritten:
    compile_id: str
    output: OutputCode


@dataclass
class NodesMapped:
    """Inductor's provenance for the output module just written."""

    compile_id: str
    pre_to_post: dict[str, list[str]]
    kernel_to_post: dict[str, list[str]]


@dataclass
class KernelStacksLogged:
    compile_id: str
    stacks: dict[str, list[str]]


@dataclass
class GuardsBuilt:
    compile_id: str
    tree: str


@dataclass
class GraphBroke:
    compile_id: str
    graph_break: GraphBreak


@dataclass
class Recompiled:
    compile_id: str
    reasons: list[str]


@dataclass
class SymbolCreated:
    compile_id: str
    symbol: DynamicSymbol
    file_index: int | None = None  # the trace's interned file name, see StringInterned


@dataclass
class SymbolGuarded:
    compile_id: str
    guard: SymbolGuard
    file_index: int | None = None  # the trace's interned file name, see StringInterned


@dataclass
class Specialized:
    compile_id: str
    specialization: Specialization
    file_index: int | None = None


@dataclass
class StringInterned:
    """The trace names each file once, by a number; frames then give the number."""

    index: int
    text: str


@dataclass
class CompileFinished:
    compile_id: str
    metrics: dict
    backward: bool = False
    failure: str | None = None
    detail: GraphBreak | None = None
    restart_reasons: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)


# --- parsers -------------------------------------------------------------------

Parser = Callable[[TraceRecord], list]
PARSERS: dict[str, Parser] = {}


def parser(*kinds: str):
    def register(fn: Parser) -> Parser:
        for kind in kinds:
            PARSERS[kind] = fn
        return fn

    return register


def reads(kind: str) -> bool:
    """Whether records of ``kind`` give facts (an artifact's kind is its name)."""
    return kind in PARSERS


# Kinds that belong to no compile.
_ANY_TIME = {"str"}


def parse(record: TraceRecord) -> list:
    """The facts in one record; records of kinds nobody parses give none."""
    parse_kind = PARSERS.get(record.kind)
    if parse_kind is None or (record.compile_id is None and record.kind not in _ANY_TIME):
        return []
    return parse_kind(record)


@parser("str")
def _interned(record):
    index, text = record.meta.get("index"), record.meta.get("text")
    if isinstance(index, int) and isinstance(text, str):
        return [StringInterned(index, text)]
    return []


@parser("dynamo_start")
def _started(record):
    return [CompileStarted(record.compile_id)]


@parser("dynamo_output_graph")
def _dynamo_graph(record):
    return [GraphTraced(record.compile_id, record.payload or "")]


_STAGES = {
    "after_pre_grad_graph": "pre_grad",
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "aot_inference_graph": "aot_inference",
}


@parser(*_STAGES)
def _stage(record):
    return [StageTraced(record.compile_id, _STAGES[record.kind], record.payload or "")]


@parser("inductor_post_grad_graph")
def _post_grad(record):
    return [PostGradTraced(record.compile_id, record.payload or "")]


@parser("inductor_output_code")
def _output_code(record):
    return [OutputCodeWritten(record.compile_id, parse_output_code(record.payload or ""))]


@parser("inductor_provenance_tracking_node_mappings")
def _node_mappings(record):
    return [NodesMapped(record.compile_id, *node_mappings(record.payload))]


@parser("inductor_provenance_tracking_kernel_stack_traces")
def _kernel_stacks(record):
    return [KernelStacksLogged(record.compile_id, kernel_stacks(record.payload))]


@parser("dynamo_cpp_guards_str")
def _guards(record):
    return [GuardsBuilt(record.compile_id, record.payload or "")]


@parser("recompile_reasons")
def _recompile(record):
    return [Recompiled(record.compile_id, recompile_reasons(record.payload))]


@parser("create_symbol", "create_unbacked_symbol")
def _symbol(record):
    meta = record.meta
    lower, upper = _range(meta.get("vr"))
    line, code, file_index = user_frame(meta.get("user_stack"))
    symbol = DynamicSymbol(
        name=str(meta.get("symbol", "?")),
        source=meta.get("source"),
        lower=lower,
        upper=upper,
        hint=None if meta.get("val") is None else str(meta["val"]),
        unbacked=record.kind == "create_unbacked_symbol",
        line=line,
        code=code,
    )
    return [SymbolCreated(record.compile_id, symbol, file_index)]


@parser("guard_added_fast")
def _symbol_guard(record):
    line, code, file_index = user_frame(record.meta.get("user_stack"))
    guard = SymbolGuard(str(record.meta.get("expr", "?")), line=line, code=code)
    return [SymbolGuarded(record.compile_id, guard, file_index)]


@parser("symbolic_shape_specialization")
def _specialization(record):
    meta = record.meta
    line, code, file_index = user_frame(meta.get("user_stack"))
    sources = meta.get("sources")
    specialization = Specialization(
        symbol=str(meta.get("symbol", "?")),
        value=str(meta.get("value", "?")),
        sources=[str(s) for s in sources] if isinstance(sources, list) else [],
        reason=str(meta.get("reason") or ""),
        line=line,
        code=code,
    )
    return [Specialized(record.compile_id, specialization, file_index)]


def user_frame(stack) -> tuple[int | None, str | None, int | None]:
    """(line, code, interned file number) of the innermost frame of a trace's user stack."""
    frame = stack[-1] if isinstance(stack, list) and stack else None
    if not isinstance(frame, dict):
        return None, None, None
    line, code, index = frame.get("line"), frame.get("loc"), frame.get("filename")
    return (
        line if isinstance(line, int) else None,
        code if isinstance(code, str) else None,
        index if isinstance(index, int) else None,
    )


@parser("dynamo_graph_break_reason")
def _graph_break(record):
    return [GraphBroke(record.compile_id, parse_graph_break(record.payload or ""))]


@parser("compilation_metrics", "bwd_compilation_metrics")
def _metrics(record):
    meta = record.meta
    failure = None
    if meta.get("fail_type"):
        failure = f"{meta['fail_type']}: {meta.get('fail_reason') or ''}".strip()
    return [
        CompileFinished(
            record.compile_id,
            metrics=compile_metrics(meta),
            backward=record.kind.startswith("bwd_"),
            failure=failure,
            detail=failure_detail(meta),
            restart_reasons=[str(r) for r in meta.get("restart_reasons") or []],
        )
    ]


def failure_detail(meta: dict) -> GraphBreak | None:
    """A failed compile's reason in torch's parts, and the user line it names."""
    if not meta.get("fail_type"):
        return None
    reason = str(meta.get("fail_reason") or "")
    line = meta.get("fail_user_frame_lineno")
    detail = GraphBreak(
        reason=f"Graph Break Reason: {reason}" if reason else "",
        filename=meta.get("fail_user_frame_filename"),
        line=line if isinstance(line, int) else None,
    )
    split_reason(detail)
    detail.reason = reason
    return detail


# --- payload helpers -------------------------------------------------------------


def recompile_reasons(payload: str | None) -> list[str]:
    """One text per earlier cache entry whose guards failed, each kept whole.

    Torch writes the one reason as it is and several as a JSON list; a reason
    spans lines (the failed guard, then "User stack trace:" and its frames).
    """
    if not payload or not payload.strip():
        return []
    if payload.lstrip().startswith(("[", '"')):
        try:
            value = json.loads(payload)
        except json.JSONDecodeError:
            return [payload.strip()]
        items = value if isinstance(value, list) else [value]
        return [str(v).strip() for v in items if str(v).strip()]
    return [payload.strip()]


def _range(text) -> tuple[str | None, str | None]:
    match = re.match(r"^\[(.*), (.*)\]$", str(text or ""))
    return (match[1], match[2]) if match else (None, None)


_AT = re.compile(r"Graph break in user code at (?P<file>.+):(?P<line>\d+)")
_DYNAMO_FILE = re.compile(r"[\\/]torch[\\/]_dynamo[\\/]")
# torch's own files, installed or in a source checkout.
_TORCH_FILE = re.compile(r"[\\/](?:site-packages|dist-packages|pytorch)[\\/]torch[\\/]")
_FRAME = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+), in (?P<name>.+)$')


def parse_graph_break(text: str) -> GraphBreak:
    """The reason, where it happened, and the user stack under "User code traceback"."""
    reason, _, stack_text = text.partition("User code traceback:")
    lines = reason.strip().splitlines()
    at = _AT.match(lines[0]) if lines else None
    if at:
        lines = lines[1:]
    stack = _user_stack(stack_text)
    filename = at["file"] if at else (stack[-1].filename if stack else None)
    line = int(at["line"]) if at else (stack[-1].line if stack else None)
    if filename and _TORCH_FILE.search(filename):
        # A break inside torch (an optimizer's step, say): the user's line is the
        # innermost frame of the stack outside torch.
        outside = [f for f in stack if not _TORCH_FILE.search(f.filename)]
        if outside:
            filename, line = outside[-1].filename, outside[-1].line
    graph_break = GraphBreak(
        reason="\n".join(lines).strip(), filename=filename, line=line, user_stack=stack
    )
    split_reason(graph_break)
    return graph_break


_WRAPPER = "Encountered graph break when attempting to trace"
_LINK = re.compile(r"For more details about this graph break, please visit:\s*(?P<url>\S+)")
_PART = re.compile(r"^\s*(?P<name>Explanation|Hint|Developer debug context):\s?(?P<text>.*)$")


def split_reason(graph_break: GraphBreak) -> None:
    """Fill ``gb_type``, ``explanation``, ``hints``, ``context``, ``link`` from the reason.

    Torch writes "Graph Break Reason: <type>", or for a break inside a called
    function "Graph Break Reason: Encountered graph break when attempting to
    trace CALL ...:" then a blank line and the inner cause; then indented
    "Explanation:", "Hint:" (one per hint), "Developer debug context:" parts
    and a link to the graph-break site.
    """
    text = graph_break.reason.removeprefix("Graph Break Reason:").strip()
    head, _, rest = text.partition("\n")
    if head.startswith(_WRAPPER):
        graph_break.wrapper = head.strip()
        head, _, rest = rest.strip().partition("\n")
    parts = _reason_parts(rest)
    if not parts:  # not torch's structured form: keep the reason as it is
        return
    graph_break.gb_type = head.strip() or None
    graph_break.explanation = parts.get("Explanation")
    graph_break.hints = parts.get("Hint", [])
    graph_break.context = parts.get("Developer debug context")
    link = _LINK.search(rest)
    graph_break.link = link["url"].rstrip(".") if link else None


def _reason_parts(text: str) -> dict:
    """The named parts of a reason; a part goes on until the next one starts."""
    parts: dict = {}
    name, lines = None, []

    def close() -> None:
        if name is None:
            return
        value = "\n".join(lines).strip()
        if name == "Hint":
            parts.setdefault("Hint", []).append(value)
        else:
            parts[name] = value

    for line in text.splitlines():
        found = _PART.match(line)
        if found or _LINK.search(line):
            close()
            name, lines = (found["name"], [found["text"]]) if found else (None, [])
        elif name is not None:
            lines.append(line.strip() if not line.strip() else line.rstrip())
    close()
    return parts


def _user_stack(text: str) -> list[FrameSummary]:
    frames: list[FrameSummary] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _FRAME.match(line)
        if match is None:
            continue
        code = lines[i + 1].strip() if i + 1 < len(lines) else None
        if code is not None and (not code or _FRAME.match(lines[i + 1])):
            code = None
        frames.append(FrameSummary(match["file"], int(match["line"]), match["name"], code))
    # Below the user's frames the traceback goes on into Dynamo's own tracer.
    while frames and _DYNAMO_FILE.search(frames[-1].filename):
        frames.pop()
    return frames


# Metric fields worth keeping: times in seconds, microsecond timings, counts.
_METRIC_SKIP = {"dynamo_config", "inductor_config", "compiler_config", "functorch_config"}


def compile_metrics(meta: dict) -> dict:
    return {
        key: value
        for key, value in meta.items()
        if key not in _METRIC_SKIP
        and value is not None
        and isinstance(value, (int, float, str, bool, list))
        and not (isinstance(value, str) and len(value) > 2000)
    }
