"""Whose code a function is, readable unique titles, and the program's dynamic shapes,
checked on real programs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from depyf_report.dump import load_dump
from depyf_report.render import render
from depyf_report.render.build_overview import build_process_view
from depyf_report.render.context import ProcessContext, function_title

from .conftest import run_capture

pytestmark = [pytest.mark.torch, pytest.mark.slow]

PROGRAMS = Path(__file__).parent / "programs"


def _made(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp(name)
    run_capture(folder / "dump", PROGRAMS / f"{name}.py")
    render(folder / "dump", folder / "site", progress=False)
    return ProcessContext.build(load_dump(folder / "dump").processes[0], ""), folder / "site"


@pytest.fixture(scope="module")
def messy(tmp_path_factory):
    return _made(tmp_path_factory, "messy")


@pytest.fixture(scope="module")
def training(tmp_path_factory):
    return _made(tmp_path_factory, "training")


@pytest.fixture(scope="module")
def shapes(tmp_path_factory):
    return _made(tmp_path_factory, "shapes")


def _table(view, anchor):
    (table,) = [t for t in view.tables if t.anchor == anchor]
    return [[", ".join(link.text for link in cell) for cell in row.cells] for row in table.rows]


def _labels(svg) -> list[str]:
    return re.findall(r'class="fc-label"[^>]*>([^<]*)<', str(svg))


def test_resume_functions_have_unique_readable_titles(messy):
    ctx, _ = messy
    titles = [function_title(fn, ctx) for fn in ctx.functions()]
    assert titles == [
        "messy",
        "messy, resumes at line 18 after the break at line 17",
        "messy, resumes at line 21 after the break at line 21",
        "messy, resumes at line 20 after the break at line 17",
    ]
    view = build_process_view(ctx)
    (chart,) = view.flowcharts
    boxes = _labels(chart)
    assert boxes[0] == "messy"
    assert [b for b in boxes if b.startswith("resumes")] == [
        "resumes at line 18",
        "resumes at line 21",
        "resumes at line 20",
    ]
    # no two boxes of the function, entry and code columns read the same
    texts = re.findall(r'<text class="fc-label" x="(\d+)"[^>]*>([^<]*)<', str(chart))
    shown = [(x, t) for x, t in texts if int(x) < 4 * 172]
    assert len(shown) == len(set(shown))


def test_same_resume_line_after_two_breaks_tells_boxes_apart(training):
    ctx, _ = training
    (chart,) = build_process_view(ctx).flowcharts
    boxes = _labels(chart)
    assert "line 25 → resumes 27" in boxes and "line 27 → resumes 27" in boxes
    assert "train_step, resumes at line 27 after the break at line 25" in [
        function_title(fn, ctx) for fn in ctx.functions()
    ]


def test_user_code_first_and_torch_helpers_left_out(training):
    ctx, site = training
    view = build_process_view(ctx)
    rows = _table(view, "functions")
    assert rows[0][0] == "train_step" and rows[0][1].endswith("training.py:21")
    assert rows[0][2] == "your code"
    assert all(r[2] in ("your code", "resume function in your code") for r in rows)
    (functions,) = [t for t in view.tables if t.anchor == "functions"]
    assert functions.note == (
        "Not listed: 3 functions of torch's own (Optimizer.profile_hook_step.<locals>.wrapper, "
        "OutputGraph.install_resume_function_global.<locals>._make_fn, SGD.step)."
    )
    assert [summary for summary, _ in view.other_flowcharts] == ["2 functions in torch"]
    index = (site / "index.html").read_text()
    # folded, its charts read from a data file when opened
    assert re.search(
        r'<details class="deferred more other-code" data-part="[^"]+"><summary>'
        r"2 functions in torch</summary>",
        index,
    )
    # torch's own functions come after the user's in every list
    assert next(fn.id for fn in ctx.functions()) == "train_step"


def test_counters_on_the_overview(messy):
    ctx, site = messy
    rows = _table(build_process_view(ctx), "counters")
    assert ["graph_break", "Failed to trace builtin operator", "2"] in rows
    assert ["unimplemented", "Data-dependent branching", "2"] in rows
    assert ["frames", "total", "5"] in rows
    assert "Dynamo&#39;s counters" in (site / "index.html").read_text()


def test_one_table_of_every_symbol(shapes):
    ctx, site = shapes
    rows = _table(build_process_view(ctx), "symbols")
    assert rows == [
        [
            "s77",
            "L['x'].size()[0]",
            "[2, int_oo], first seen 4",
            "0/0",
            "2*s77 == s15 (line 18), L['y'].size()[0] (equal at the first call: one symbol)",
            "its range only",
        ],
        [
            "s15",
            "L['w'].size()[0]",
            "[2, int_oo], first seen 8",
            "0/0",
            "2*s77 == s15 (line 18)",
            "its range only",
        ],
        [
            "s77",
            "L['x'].size()[0]",
            "[2, int_oo], first seen 8",
            "1/0",
            "—",
            "specialized to 8 at line 22",
        ],
        [
            "s97",
            "L['a'].size()[0]",
            "[2, int_oo], first seen 10",
            "2/1",
            "—",
            "Eq(Mod(s97, 2), 0) (line 26), Ne((s97//2), 1) (line 26), "
            "8*((s97//2)) <= 4*s97 (line 26)",
        ],
    ]
    fixed = ctx.compile("1/0")
    (spec,) = fixed.specializations
    assert (spec.symbol, spec.value, spec.sources, spec.reason) == (
        "s77",
        "8",
        ["L['x'].size()[0]"],
        "range_refined_to_singleton",
    )
    assert spec.filename.endswith("shapes.py") and spec.code == "return x.view(4, 2) * 2"
    index = (site / "index.html").read_text()
    assert 'href="fn-fixed.html#L22"' in index  # the specialization links to its line
