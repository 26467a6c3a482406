"""``summary.md``: the headline numbers and findings, GitHub-flavoured, for an issue."""

from __future__ import annotations

from ..dump import Dump
from .build_overview import compile_seconds
from .context import ProcessContext, break_summary


def summary_markdown(dump: Dump, contexts: list[ProcessContext]) -> str:
    parts = ["## torch.compile report (depyf-report)", ""]
    for ctx in contexts:
        if ctx.label:
            parts += [f"### {_md(ctx.label)}", ""]
        parts += _numbers(ctx) + _functions(ctx)
    if dump.problems:
        parts += ["<details><summary>Files that could not be read</summary>", ""]
        parts += [f"- `{_code(str(p))}`" for p in dump.problems] + ["", "</details>", ""]
    parts.append("Open `index.html` of the attached site for guards, graphs and kernels.")
    return "\n".join(parts) + "\n"


def _numbers(ctx: ProcessContext) -> list[str]:
    d = ctx.dump
    m = d.manifest
    breaks = sum(len(c.graph_breaks) for c in d.compiles.values())
    recompiles = sum(len(c.recompile_reasons) for c in d.compiles.values())
    kernels = sum(len(o.kernels) for g in d.graphs.values() for o in g.output_code)
    seconds = sum(compile_seconds(c) for c in d.compiles.values())
    rows = [
        ("command", f"`{_code(' '.join(['python', *m.argv]))}`"),
        ("status", m.status if m.ended else f"{m.status} (capture did not finish)"),
        ("torch / Python", f"{m.torch_version or '?'} / {m.python_version}"),
        ("functions", str(len(d.functions))),
        ("compiles", str(len(d.compiles))),
        ("recompiles", str(recompiles)),
        ("graph breaks", str(breaks)),
        ("graphs", str(len(d.graphs))),
        ("kernels", str(kernels)),
        ("compile time", f"{seconds:.2f} s"),
    ]
    return ["| | |", "|---|---|", *[f"| {k} | {v} |" for k, v in rows], ""]


def _functions(ctx: ProcessContext) -> list[str]:
    lines = []
    for fn in ctx.roots():
        compiles = ctx.compiles_of.get(fn.id, [])
        breaks = [b for c in compiles for b in c.graph_breaks]
        reasons = [r for c in compiles for r in c.recompile_reasons]
        counts = [
            _count(len(fn.entries), "cache entry", "cache entries"),
            _count(len(breaks), "graph break"),
            _count(len(reasons), "recompile"),
        ]
        title = f"<code>{_html(fn.qualname)}</code>: {', '.join(counts)}"
        lines += [f"<details><summary>{title}</summary>", ""]
        lines += [f"- graph break at line {b.line}: {_md(break_summary(b.reason))}" for b in breaks]
        lines += [f"- recompiled: {_md(' '.join(r.split()))}" for r in reasons]
        if fn.source:
            lines += ["", "```python", fn.source.rstrip().replace("```", "` ` `"), "```"]
        lines += ["", "</details>", ""]
    return lines


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _md(text: str) -> str:
    """Plain text in Markdown: no markup from user data is interpreted."""
    return (
        _html(text).replace("|", "\\|").replace("`", "\\`").replace("*", "\\*").replace("_", "\\_")
    )


def _code(text: str) -> str:
    return text.replace("`", "'")
