"""Metrics in one unit, dicts as tables, and none of depyf-report's own frames (issue 22)."""

import json

from light_pages import read_part
from synthetic import make_dump

from depyf_report.render import render
from depyf_report.render.metrics import format_metric, metric_rows

# Part of what torch 2.13 records for a compile under `depyf-report run`.
METRICS = {
    "entire_frame_compile_time_s": 9.263034,
    "duration_us": 9263034,
    "backend_compile_time_s": 9.126371,
    "dynamo_cumulative_compile_time_us": 9263034,
    "pre_grad_pass_time_us": 5652,
    "start_time": 1795643113.368993,
    "start_time_us": 1795643113368993,
    "guard_count": 11,
    "has_guarded_code": True,
    "restart_reasons": [],
    "graph_node_shapes": "{'l_a_': [10], 'abs_1': [10], 'sum_1': []}",
    "stack_trace": [
        "Line: 6, Name: <module>, Filename: <string>",
        "Line: 91, Name: run_as_main, Filename: /venv/site-packages/depyf_report/capture/runner.py",
        "Line: 220, Name: _run_as_main, Filename: /venv/site-packages/depyf_report/capture/runner.py",
        "Line: 29, Name: <module>, Filename: /home/ana/toy_example.py",
        "Line: 12, Name: toy_example, Filename: /home/ana/toy_example.py",
    ],
    "inductor_config": {"max_autotune": False, "triton.cudagraphs": True},
}


def _rows():
    return {row.name: row for row in metric_rows(METRICS)}


def test_every_time_is_in_seconds_and_given_once():
    rows = _rows()
    assert rows["entire_frame_compile_time_s"].value == "9.263 s"
    assert rows["pre_grad_pass_time_us"].value == "0.006 s"  # no seconds twin: converted
    assert rows["dynamo_cumulative_compile_time_us"].value == "9.263 s"
    assert "duration_us" in rows  # duration_s is not recorded, so this is the only one
    assert "start_time_us" not in rows  # start_time says it already
    assert rows["start_time"].value == "2026-11-25T21:45:13 UTC"


def test_dicts_and_lists_are_tables():
    rows = _rows()
    assert rows["graph_node_shapes"].table == (("l_a_", "[10]"), ("abs_1", "[10]"), ("sum_1", "[]"))
    assert rows["inductor_config"].table == (
        ("max_autotune", "False"),
        ("triton.cudagraphs", "True"),
    )
    assert rows["restart_reasons"].value == "none"
    assert rows["has_guarded_code"].value == "yes"


def test_the_stack_starts_at_the_users_code():
    stack = _rows()["stack_trace"]
    assert stack.value == "2 frames"
    assert [text for _, text in stack.table] == [
        "/home/ana/toy_example.py:29 in <module>",
        "/home/ana/toy_example.py:12 in toy_example",
    ]
    assert "depyf_report" not in str(stack)


def test_a_damaged_repr_stays_text():
    assert _rows()["guard_count"].value == "11"
    rows = {r.name: r for r in metric_rows({"graph_node_shapes": "{" * 5000})}
    assert rows["graph_node_shapes"].table == ()
    assert format_metric("x_s", float("nan")) == "nan s"


def test_the_function_page_shows_the_time_bar_and_the_tables(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=1)
    path = dump / "compiles" / "0-0.json"
    record = json.loads(path.read_text())
    record["metrics"] = METRICS
    path.write_text(json.dumps(record))
    site = render(dump, tmp_path / "site", progress=False).parent
    # The metrics table is read when it is opened: it is in one of the page's data files.
    folded = [read_part(p) for p in sorted(site.glob("fn-f0.*.js"))]
    page = (site / "fn-f0.html").read_text() + "".join(p for p in folded if isinstance(p, str))
    assert '<figure class="time-bar">' in page and "code generation" not in page  # no inductor
    assert "AOTAutograd 9.126 s" in page and "Dynamo tracing 0.137 s" in page
    assert "/home/ana/toy_example.py:12 in toy_example" in page
    assert "runner.py" not in page


def test_a_break_stack_folds_the_frames_of_other_code():
    from depyf_report.dump import FrameSummary
    from depyf_report.render.build_function import stack_frames

    site = "/venv/lib/python3.11/site-packages"
    stack = [
        FrameSummary("/home/ana/train.py", 30, "main"),
        FrameSummary(f"{site}/torch/optim/optimizer.py", 480, "wrapper"),
        FrameSummary(f"{site}/torch/optim/sgd.py", 120, "step"),
        FrameSummary("/home/ana/train.py", 12, "log_lr", "print(lr)"),
    ]
    runs = stack_frames(stack)
    assert [(r.origin, len(r.lines)) for r in runs] == [("", 1), ("torch", 2), ("", 1)]
    assert runs[-1].lines == ("/home/ana/train.py:12 in log_lr: print(lr)",)
