"""The search index covers what users look for by name (issue 22)."""

import json

import pytest
from synthetic import make_dump

from depyf_report.dump import load_dump
from depyf_report.render.context import ProcessContext
from depyf_report.render.search import search_rows

# A graph break as torch 2.13 words it: the type, then the explanation and hints.
ITEM_BREAK = """Graph Break Reason: Unsupported Tensor.item() call with capture_scalar_outputs=False
  Explanation: Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.
  Hint: Set `torch._dynamo.config.capture_scalar_outputs = True` or `export TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph.

  Developer debug context: call_method TensorVariable() item () {}
"""


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    dump = make_dump(tmp_path_factory.mktemp("search") / "dump", graphs=12)
    path = dump / "compiles" / "0-0.json"
    record = json.loads(path.read_text())
    record["graph_breaks"][0]["reason"] = ITEM_BREAK
    record["failure"] = "Unsupported: logging.Logger method not supported for non-export cases"
    path.write_text(json.dumps(record))
    (process,) = load_dump(dump).processes
    return search_rows(ProcessContext.build(process, ""))


def _found(rows, query: str) -> list[list[str]]:
    """What the page's search finds: every word in a row's kind, text, detail or more."""
    words = query.lower().split()
    return [
        r for r in rows if all(w in " ".join([r[0], r[1], r[2], *r[4:]]).lower() for w in words)
    ]


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("capture_scalar_outputs", "graph break"),
        ("Tensor.item", "graph break"),
        ("size mismatch", "recompile"),
        ("recompile", "recompile"),
        ("s0", "symbol"),
        ("cpp_fused", "kernel"),
        ("logging.Logger", "failed compile"),
        ("__compiled_fn_1", "graph"),
        ("check_type_id", "guard"),
    ],
)
def test_search_finds_each_kind_of_thing_by_name(rows, query, kind):
    assert kind in {row[0] for row in _found(rows, query)}


def test_a_break_is_listed_by_its_first_line_and_found_by_its_hint(rows):
    (brk,) = [r for r in _found(rows, "capture_scalar_outputs") if r[0] == "graph break"]
    assert brk[1] == "Unsupported Tensor.item() call with capture_scalar_outputs=False"
    assert "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS" in brk[4]
    assert brk[3].startswith("fn-f0.html#compile-")


def test_kernels_link_to_their_section_of_the_output_code(rows):
    kernels = [r for r in rows if r[0] == "kernel"]
    assert kernels and all("-code.html#kernel-cpp_fused_mul_" in r[3] for r in kernels)
