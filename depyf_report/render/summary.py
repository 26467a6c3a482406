"""``summary.md``: the headline numbers and findings, GitHub-flavoured, for an issue.

Every string from the dump is inert on GitHub: it goes into a code span or a
fenced code block, where Markdown, HTML, autolinks (``www.``, ``http://``,
e-mail addresses) and GitHub's @mentions are not interpreted. A code span is
fenced with more backticks than the text holds in a row and kept on one line
(line breaks and controls written out), so a blank line cannot end it.
"""

from __future__ import annotations

import re

from ..dump import Dump
from ..terminal import terminal_safe
from .build_overview import compile_seconds
from .build_overview import recompiles as recompile_records
from .context import ProcessContext, break_summary

SOURCE_LIMIT = 20_000  # characters of a function's source shown in the summary


def summary_markdown(dump: Dump, contexts: list[ProcessContext]) -> str:
    parts = ["## torch.compile report (depyf-report)", ""]
    for ctx in contexts:
        if ctx.label:
            parts += [f"### {code_span(ctx.label)}", ""]
        parts += _numbers(ctx) + _functions(ctx)
    if dump.problems:
        parts += ["<details><summary>Files that could not be read</summary>", ""]
        parts += [f"- {code_span(str(p))}" for p in dump.problems] + ["", "</details>", ""]
    parts.append("Open `index.html` of the attached site for guards, graphs and kernels.")
    return "\n".join(parts) + "\n"


def _numbers(ctx: ProcessContext) -> list[str]:
    d = ctx.dump
    m = d.manifest
    breaks = sum(len(c.graph_breaks) for c in d.compiles.values())
    recompiles = len(recompile_records(ctx))
    kernels = sum(len(o.kernels) for g in d.graphs.values() for o in g.output_code)
    seconds = sum(compile_seconds(c) for c in d.compiles.values())
    status = code_span(m.status) + ("" if m.ended else " (capture did not finish)")
    rows = [
        ("command", code_span(" ".join(["python", *m.argv]))),
        ("status", status),
        ("torch / Python", f"{code_span(m.torch_version or '?')} / {code_span(m.python_version)}"),
        ("functions", str(len(d.functions))),
        ("compiles", str(len(ctx.compiles()))),
        ("recompiles", str(recompiles)),
        ("graph breaks", str(breaks)),
        ("graphs", str(len(d.graphs))),
        ("kernels", str(kernels)),
        ("compile time", f"{seconds:.2f} s"),
    ]
    # A "|" splits a table cell even inside a code span, unless escaped.
    cells = [(k, v.replace("|", "\\|")) for k, v in rows]
    return ["| | |", "|---|---|", *[f"| {k} | {v} |" for k, v in cells], ""]


def _functions(ctx: ProcessContext) -> list[str]:
    lines = []
    listed = {fn.id for fn in ctx.listed()}  # torch's own functions are left out
    for fn in ctx.roots():
        if fn.id not in listed:
            continue
        compiles = ctx.compiles_of.get(fn.id, [])
        family = [c for member in ctx.family(fn) for c in ctx.compiles_of.get(member.id, [])]
        breaks = [(c, b) for c in family for b in ctx.graph_breaks(c)]
        reasons = [c for c in compiles if c.recompile_reasons]
        counts = [
            _count(len(fn.entries), "cache entry", "cache entries"),
            _count(len(breaks), "graph break"),
            _count(len(reasons), "recompile"),
        ]
        title = f"<code>{_html(fn.qualname)}</code>: {', '.join(counts)}"
        lines += [f"<details><summary>{title}</summary>", ""]
        lines += [
            f"- graph break at line {_line(ctx.break_line(c.function, b) or b.line)}: "
            f"{code_span(break_summary(b.reason, b.gb_type))}"
            for c, b in breaks
        ]
        lines += [
            f"- recompiled ({code_span(c.id)}): "
            + "; ".join(code_span(" ".join(f.guard.split())) for f in c.guard_failures)
            for c in reasons
        ]
        if fn.source:
            lines += ["", *code_block(_cut_source(fn.source.rstrip()), "python")]
        lines += ["", "</details>", ""]
    return lines


def _cut_source(source: str) -> str:
    """The source, cut to what an issue can hold (GitHub takes 65,536 characters)."""
    if len(source) <= SOURCE_LIMIT:
        return source
    shown = source[:SOURCE_LIMIT].rpartition("\n")[0] or source[:SOURCE_LIMIT]
    return f"{shown}\n# ... cut: {len(source) - len(shown):,} more characters in the site"


def code_span(text: str) -> str:
    """``text`` as an inline code span, on one line, that nothing in it can close."""
    text = terminal_safe(text)  # line breaks and controls as \x0a etc.: one line
    fence = "`" * (_longest_backtick_run(text) + 1)
    if text.startswith("`") or text.endswith("`") or (text[:1] == text[-1:] == " "):
        text = f" {text} "  # one space each side is dropped again by the reader
    return f"{fence}{text}{fence}"


def code_block(text: str, language: str = "") -> list[str]:
    """``text`` as a fenced code block whose fence no line of it can close."""
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    return [f"{fence}{language}", text, fence]


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def _line(line) -> str:
    return str(line) if isinstance(line, int) else "?"


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _html(text: str) -> str:
    """Text inside our own HTML (a <summary>): escaped, and on one line, since a
    blank line would end the HTML block and start Markdown."""
    text = terminal_safe(text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
