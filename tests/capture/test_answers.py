"""Why it broke, why it recompiled, which guard failed: checked on real programs.

Each program in programs/ runs under ``depyf-report run``; the report's
answers are compared with torch's own records of the same run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from depyf_report.dump import load_dump
from depyf_report.render import render, urls
from depyf_report.render.build_function import build_function_page, guard_count
from depyf_report.render.build_overview import recompiles
from depyf_report.render.context import ProcessContext
from depyf_report.render.recompiles import failed_guard_line, limit_hit

from .conftest import run_capture

PROGRAMS = Path(__file__).parent / "programs"
PROGRAM = "tests/capture/programs/"


@pytest.fixture(scope="module")
def recompiled(tmp_path_factory):
    """(process context, torch's compilation metrics, site folder) for recompiles.py."""
    folder = tmp_path_factory.mktemp("recompiles")
    metrics = folder / "torch-metrics.json"
    run_capture(folder / "dump", PROGRAMS / "recompiles.py", env={"TORCH_METRICS": str(metrics)})
    dump = load_dump(folder / "dump")
    render(folder / "dump", folder / "site", progress=False)
    return ProcessContext.build(dump.processes[0], ""), json.loads(metrics.read_text()), folder


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    folder = tmp_path_factory.mktemp("breaks")
    run_capture(folder / "dump", PROGRAMS / "breaks.py")
    dump = load_dump(folder / "dump")
    render(folder / "dump", folder / "site", progress=False)
    return ProcessContext.build(dump.processes[0], ""), folder / "site"


# --- recompiles ------------------------------------------------------------------


def test_one_recompile_each_as_torch_counts_them(recompiled):
    ctx, torch_metrics, _ = recompiled
    torch_recompiles = {m["compile_id"] for m in torch_metrics if m["recompile_reason"]}
    # torch's compile ids agree: a recompile is a compile of a frame seen before.
    assert torch_recompiles == {
        m["compile_id"] for m in torch_metrics if "/0" not in m["compile_id"]
    }
    assert (
        {c.id for c in recompiles(ctx)} == torch_recompiles == {"0/1", "0/2", "1/1", "2/1", "2/2"}
    )
    for record in recompiles(ctx):
        # one text per earlier cache entry, each whole: the guard, then its stack
        assert len(record.recompile_reasons) == int(record.id.split("/")[1])
        assert all(r.startswith(f"{record.frame_id}/") for r in record.recompile_reasons)
    assert "User stack trace:" in ctx.compile("0/2").recompile_reasons[0]


def test_each_failed_guard_names_its_entry_kind_and_value(recompiled):
    ctx = recompiled[0]
    failures = {
        c.id: [(f.entry, f.kind, f.source, f.guard) for f in c.guard_failures]
        for c in recompiles(ctx)
    }
    size = "tensor 'x' size mismatch at index 0. expected 2, actual 3"
    assert failures == {
        "0/1": [("0/0", "size", "L['x']", size)],
        "0/2": [("0/1", "value", "n", "n == 3"), ("0/0", "size", "L['x']", size)],
        "1/1": [("1/0", "value", "self.doubled", "self.doubled == True")],
        "2/1": [("2/0", "value", "mode", "mode == 'double'")],
        "2/2": [
            ("2/1", "value", "mode", "mode == 'add'"),
            ("2/0", "value", "mode", "mode == 'double'"),
        ],
    }


def test_the_failed_guard_is_found_in_the_earlier_entry_tree(recompiled):
    ctx = recompiled[0]
    entries = {e.compile_id: e for f in ctx.dump.functions.values() for e in f.entries}
    expected = {
        ("0/1", "0/0"): "TENSOR_MATCH: check_tensor(L['x'],",
        ("0/2", "0/1"): "EQUALS_MATCH: L['n'] == 3",
        ("1/1", "1/0"): "TRUE_MATCH: L['self'].doubled == True",
        ("2/1", "2/0"): "EQUALS_MATCH: L['mode'] == 'double'",
        ("2/2", "2/1"): "EQUALS_MATCH: L['mode'] == 'add'",
    }
    for (compile_id, entry_id), text in expected.items():
        failure = next(f for f in ctx.compile(compile_id).guard_failures if f.entry == entry_id)
        tree = entries[entry_id].guards.tree
        line = failed_guard_line(tree, failure)
        assert line is not None and text in tree.splitlines()[line - 1], (compile_id, line)


def test_function_page_marks_the_failed_guard_and_gives_the_remedy(recompiled):
    ctx, _, folder = recompiled
    page = (folder / "site" / "fn-scale.html").read_text()
    tree = ctx.function("scale").entries[0].guards.tree.splitlines()
    line = next(n for n, t in enumerate(tree, 1) if "TENSOR_MATCH" in t)
    row = re.search(rf'<div data-depth="\d+" class="([^"]*)" id="entry-0-g{line}">.*?</div>', page)
    assert "failed" in row[1].split()
    assert f'href="#{urls.compile_anchor("0/1")}">failed: recompiled as 0/1' in row[0]
    assert "torch._dynamo.mark_dynamic" in page and "dynamic=True" in page
    assert "pass it as a tensor" in page
    pick = (folder / "site" / "fn-pick.html").read_text()
    assert "torch._dynamo.config.recompile_limit" in pick
    assert limit_hit(ctx.compile("2/2")) and ctx.compile("2/2").status == "failed"


def test_guard_counts_are_torch_guard_count_or_say_what_differs(recompiled):
    ctx, torch_metrics, _ = recompiled
    torch_counts = {m["compile_id"]: m["guard_count"] for m in torch_metrics}
    for fn in ctx.dump.functions.values():
        page = build_function_page(ctx, fn, ())
        for entry, view in zip(fn.entries, page.entries):
            assert view.guard_count == torch_counts[entry.compile_id]
            assert guard_count(ctx, entry)[0] == torch_counts[entry.compile_id]
            checks = len(entry.guards.guards)
            assert (view.guard_note == "") == (checks == view.guard_count)
            if view.guard_note:
                assert f"holds {checks} checks" in view.guard_note


def test_the_limit_hit_is_a_failed_compile_with_torch_hints(recompiled):
    ctx, _, folder = recompiled
    detail = ctx.compile("2/2").failure_detail
    assert detail.gb_type == "Dynamo recompile limit exceeded"
    assert any("torch._dynamo.config.recompile_limit" in h for h in detail.hints)
    assert detail.link.startswith("https://meta-pytorch.github.io/compile-graph-break-site/")
    page = (folder / "site" / "fn-pick.html").read_text()
    assert f'<a href="{detail.link}">' in page
    summary = (folder / "site" / "summary.md").read_text()
    assert "| recompiles | 5 |" in summary
    index = (folder / "site" / "index.html").read_text()
    href = ctx.compile_href("2/2")
    assert f'<a href="{href}" title="Unsupported: Dynamo recompile limit exceeded' in index
    assert ">failed: Dynamo recompile limit exceeded</a>" in index


# --- graph breaks -----------------------------------------------------------------

BUILTIN = "Failed to trace builtin operator"
BRANCH = "Data-dependent branching"
ITEM = "Unsupported Tensor.item() call with capture_scalar_outputs=False"


def _breaks(ctx):
    return [
        (record.id, b.gb_type, Path(b.filename).name, b.line, ctx.break_line(record.function, b))
        for record in ctx.compiles()
        for b in ctx.graph_breaks(record)
    ]


def test_each_break_has_its_real_cause_and_user_line(broken):
    ctx, _ = broken
    assert _breaks(ctx) == [
        ("0/0_1", BUILTIN, "breaks.py", 15, 15),  # print("step")
        ("1/0", BRANCH, "breaks.py", 17, 17),  # if z.sum() > 0:
        ("2/0_1", ITEM, "breaks.py", 19, 19),  # n = z.sum().item()
        ("3/0_1", BUILTIN, "breaks.py", 9, 21),  # print in helper, called at line 21
        ("4/0_1", BUILTIN, "breaks.py", 9, 9),  # helper compiled on its own
    ]
    wrapped = [b for c in ctx.compiles() for b in ctx.graph_breaks(c)]
    assert [bool(b.wrapper) for b in wrapped] == [True, False, True, True, True]
    item = wrapped[2]
    assert item.explanation.startswith("Dynamo does not support tracing `Tensor.item()`")
    assert item.hints == [
        "Set `torch._dynamo.config.capture_scalar_outputs = True` or `export "
        "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph."
    ]
    assert item.link == "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html"
    assert "Tensor.item" not in (wrapped[0].explanation or "")
    assert all("Encountered graph break" not in (b.gb_type or "") for b in wrapped)


def test_restarts_are_attempts_of_one_compile(broken):
    ctx, site = broken
    assert [c.id for c in ctx.compiles()] == [
        "0/0_1",
        "1/0",
        "2/0_1",
        "3/0_1",
        "4/0_1",
        "5/0",
        "6/0",
    ]
    assert [a.id for a in ctx.attempts(ctx.compile("0/0_1"))] == ["0/0", "0/0_1"]
    assert ctx.compile_href("0/0") == ctx.compile_href("0/0_1")
    page = build_function_page(ctx, ctx.function("many_breaks"), ())
    (view,) = page.compiles
    assert view.attempts == (("0/0", BUILTIN),)
    assert [b.summary for b in view.graph_breaks] == [BUILTIN]
    index = (site / "index.html").read_text()
    assert index.count("ok after 2 attempts") == 4  # 0/0, 2/0, 3/0, 4/0 restarted once


def test_the_function_source_marks_every_break_and_resume_point(broken):
    ctx, site = broken
    page = build_function_page(ctx, ctx.function("many_breaks"), ())
    marks = {  # what each line became ("made") is provenance's, tested on its own
        line.number: sorted(m.kind for m in line.marks if m.kind != "made")
        for line in page.source
        if any(m.kind != "made" for m in line.marks)
    }
    assert marks == {
        15: ["break", "resume"],
        17: ["break"],
        18: ["resume"],
        19: ["break", "resume", "resume"],  # after .item(), and the branch not taken
        21: ["break", "resume"],
    }
    for line in page.source:
        for mark in line.marks:
            assert mark.href, (line.number, mark)
    html = (site / "fn-many_breaks.html").read_text()
    assert "graph break: Unsupported Tensor.item() call" in html
    resumed = ctx.function("torch_dynamo_resume_in_many_breaks_at_19")
    (helper_break,) = build_function_page(ctx, resumed, ()).compiles[0].graph_breaks
    assert helper_break.where.text.endswith("breaks.py:9")  # the print in helper
    assert helper_break.call.text == "line 21"
    assert helper_break.call.href == "fn-many_breaks.html#L21"


def test_overview_groups_breaks_by_type_and_links_marked_lines(broken):
    site = broken[1]
    index = (site / "index.html").read_text()
    table = index[index.index("Graph breaks by type") :]
    table = table[table.index("<table") : table.index("</table>")]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(\d+)</td><td>(.*?)</td></tr>", table)
    assert [(r[0], r[1]) for r in rows] == [(BUILTIN, "3"), (BRANCH, "1"), (ITEM, "1")]
    assert [len(re.findall("<a ", r[2])) for r in rows] == [3, 1, 1]
    for href in re.findall(r'href="([^"]+)"', table):
        page, _, anchor = href.partition("#")
        target = (site / page).read_text()
        row = re.search(rf'<div class="([^"]*)" id="{re.escape(anchor)}"', target)
        assert row and "break" in row[1].split(), href


# --- a training step ---------------------------------------------------------------


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("training")
    run_capture(folder / "dump", PROGRAMS / "training.py", "aot_eager")
    dump = load_dump(folder / "dump")
    render(folder / "dump", folder / "site", progress=False)
    return ProcessContext.build(dump.processes[0], ""), folder / "site"


def test_training_step_breaks_name_the_user_lines(trained):
    ctx, site = trained
    found = [
        (b.gb_type, Path(b.filename).name, b.line)
        for record in ctx.compiles()
        for b in ctx.graph_breaks(record)
    ]
    assert found == [
        ("Attempted to inline function marked as skipped", "training.py", 22),  # zero_grad
        ("logging.Logger method not supported for non-export cases", "training.py", 24),
        ("Data-dependent branching", "training.py", 25),  # if loss > 100:
        ("Unsupported Tensor.backward() call", "training.py", 27),
        # inside torch's optimizer: the user's line is the call to opt.step()
        ("Call to `torch._dynamo.graph_break()`", "training.py", 28),
        ("Call to `torch._dynamo.graph_break()`", "training.py", 28),
    ]
    logging_break = ctx.graph_breaks(ctx.compile("1/0_1"))[0]
    # torch's own hint, whose wording changes between releases (2.14 says more)
    assert logging_break.hints
    assert "`torch._dynamo.config.ignore_logging_functions`" in logging_break.hints[0]
    page = build_function_page(ctx, ctx.function("train_step"), ())
    marked = sorted(
        line.number for line in page.source if any(m.kind == "break" for m in line.marks)
    )
    assert marked == [22, 24, 25, 27, 28]
    assert "logging.Logger method not supported" in (site / "summary.md").read_text()
