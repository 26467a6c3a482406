"""A Llama-style transformers model at four shapes: one recompile, as torch counts it.

Before issue 22 the report split the recompile's multi-line reason into lines and
said 4 where torch said 1. Here the count, the guard that failed and its remedy are
checked against torch's own compilation metrics of the same run.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from depyf_report.capture.guards import guard_failure
from depyf_report.dump import load_dump
from depyf_report.render import render
from depyf_report.render.build_overview import recompiles
from depyf_report.render.context import ProcessContext
from depyf_report.render.recompiles import failed_guard_line

from .conftest import run_capture

pytestmark = [pytest.mark.torch, pytest.mark.slow]
PROGRAM = Path(__file__).parent / "programs" / "llama_shapes.py"


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    folder = tmp_path_factory.mktemp("llama")
    metrics = folder / "torch-metrics.json"
    run_capture(folder / "dump", PROGRAM, env={"TORCH_METRICS": str(metrics)})
    render(folder / "dump", folder / "site", progress=False)
    (process,) = load_dump(folder / "dump").processes
    return ProcessContext.build(process, ""), json.loads(metrics.read_text()), folder / "site"


def test_four_shapes_make_one_recompile_as_torch_counts_it(llama):
    ctx, torch_metrics, site = llama
    torch_recompiles = {m["compile_id"] for m in torch_metrics if m["recompile_reason"]}
    assert {c.id for c in recompiles(ctx)} == torch_recompiles == {"0/1"}
    assert "| recompiles | 1 |" in (site / "summary.md").read_text()


def test_the_failed_size_guard_is_found_with_its_remedy(llama):
    ctx, torch_metrics, _ = llama
    (failure,) = ctx.compile("0/1").guard_failures
    torch_reason = next(m["recompile_reason"] for m in torch_metrics if m["compile_id"] == "0/1")
    assert failure.entry == "0/0" and failure.kind == "size"
    assert failure.guard in torch_reason  # "tensor 'args[1]' size mismatch at index 1. ..."
    entry = next(e for f in ctx.dump.functions.values() for e in f.entries if e.compile_id == "0/0")
    line = failed_guard_line(entry.guards.tree, failure)
    assert line is not None
    assert "TENSOR_MATCH" in entry.guards.tree.splitlines()[line - 1]


@pytest.mark.parametrize(
    ("reason", "source"),
    [
        ("0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3", "L['x']"),
        ("0/0: tensor 'args[1]' size mismatch at index 1. expected 8, actual 12", "L['args'][1]"),
        ("0/0: tensor 'self.w' stride mismatch at index 0. expected 1, actual 2", "L['self'].w"),
        ("0/0: tensor 'L['x']' size mismatch at index 0. expected 8, actual 16", "L['x']"),
    ],
)
def test_a_tensor_named_from_a_local_is_found_by_its_guard_source(reason, source):
    assert guard_failure(reason).source == source


class _Elements(HTMLParser):
    count = 0

    def handle_starttag(self, tag, attrs):
        self.count += 1


def test_every_page_of_the_site_stays_light(llama):
    """Issue 27: at most 300 KB of HTML and 3,000 elements a page; guard trees fold."""
    _, _, site = llama
    pages = sorted(site.glob("*.html"))
    assert any(p.name.startswith("fn-") for p in pages)
    for page in pages:
        html = page.read_text(encoding="utf-8")
        elements = _Elements()
        elements.feed(html)
        assert len(html.encode()) <= 300 * 1024, page.name
        assert elements.count <= 3000, page.name
    function = max(site.glob("fn-*.html"), key=lambda p: p.stat().st_size).read_text()
    assert 'class="code guard-tree"' in function and 'class="unfold"' in function
