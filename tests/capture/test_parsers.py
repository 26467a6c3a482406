"""The structured-trace parsers on payloads as torch 2.13 writes them; no torch needed."""

from __future__ import annotations

from depyf_report.capture import trace
from depyf_report.capture.guards import parse_guard_tree
from depyf_report.capture.kernels import parse_output_code

GUARD_TREE = """
TREE_GUARD_MANAGER:
+- RootGuardManager
| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None                           # _dynamo/output_graph.py:1122 in init_ambient_guards
| +- GuardManager: source=L['a'], accessed_by=FrameLocalsGuardAccessor(key='a', framelocals_idx=0), type=<class 'torch.Tensor'>, tag_safe=(False, False)
| | +- TENSOR_MATCH: check_tensor(L['a'], Tensor, torch.float32, size=[None], stride=[1])  # x = a / (torch.abs(a) + 1)  # mp/cap/gm.py:4 in toy
| | +- NO_TENSOR_ALIASING
| +- GuardManager: source=G, accessed_by=GlobalsGuardAccessor, type=<class 'dict'>, tag_safe=(False, False)
| | +- GuardManager: source=G['torch'], accessed_by=DictGetItemGuardAccessor('torch'), type=<class 'module'>, tag_safe=(False, False)
| | | +- ID_MATCH: ___check_obj_id(G['torch'], 1404), type=<class 'module'>  # x = a / (torch.abs(a) + 1)  # mp/cap/gm.py:4 in toy
+- LAMBDA_GUARD: 2 <= L['a'].size()[0]  # x = a / (torch.abs(a) + 1)  # mp/cap/gm.py:4 in toy (user code shown is first use of this value)

Guard latency = 83.90 us
"""


def test_guard_tree_gives_each_guard_with_its_source():
    guards = parse_guard_tree(GUARD_TREE)
    assert guards.tree.startswith("TREE_GUARD_MANAGER:")
    found = [(g.kind, g.user_source, g.line) for g in guards.guards]
    assert found == [
        ("DEFAULT_DEVICE", None, 1122),
        ("TENSOR_MATCH", "L['a']", 4),
        ("NO_TENSOR_ALIASING", "L['a']", None),
        ("ID_MATCH", "G['torch']", 4),
        ("SHAPE", None, 4),
    ]
    assert guards.guards[1].expression == (
        "check_tensor(L['a'], Tensor, torch.float32, size=[None], stride=[1])"
    )
    assert guards.guards[1].filename == "mp/cap/gm.py"
    assert guards.shape_guards == ["2 <= L['a'].size()[0]"]


OUTPUT_CODE = """# AOT ID: ['3_backward']
import torch
cpp_fused_mul_0 = async_compile.cpp_pybinding(['const float*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const float* in_ptr0, float* out_ptr0) {}
''')
triton_poi_fused_add_1 = async_compile.triton('triton_poi_fused_add_1', '''
import triton
@triton.jit
def triton_poi_fused_add_1(in_ptr0, xnumel): pass
''', device_str='cuda')
def call(args):
    cpp_fused_mul_0(args[0], buf0)
"""


def test_output_code_gives_part_and_kernels():
    output = parse_output_code(OUTPUT_CODE)
    assert output.part == "backward"
    assert [(k.name, k.language) for k in output.kernels] == [
        ("cpp_fused_mul_0", "cpp"),
        ("triton_poi_fused_add_1", "triton"),
    ]
    assert output.kernels[0].source.startswith("#include <torch/csrc/inductor/cpp_prefix.h>")
    assert (
        output.kernels[1]
        .source.strip()
        .endswith("def triton_poi_fused_add_1(in_ptr0, xnumel): pass")
    )


GRAPH_BREAK = """Graph break in user code at /w/toy.py:14
Graph Break Reason: Data-dependent branching
  Explanation: Detected data-dependent branching.

User code traceback:
  File "/w/run.py", line 20, in <module>
    main()
  File "/w/toy.py", line 14, in toy
    if b.sum() < 0:
       ^^^^^^^^^^^^
  File "/v/torch/_dynamo/symbolic_convert.py", line 1076, in wrapper
    return inner_fn(self, inst)

NoneType: None
"""


def test_graph_break_gives_reason_place_and_user_stack():
    graph_break = trace.parse_graph_break(GRAPH_BREAK)
    assert graph_break.reason == (
        "Graph Break Reason: Data-dependent branching\n"
        "  Explanation: Detected data-dependent branching."
    )
    assert (graph_break.filename, graph_break.line) == ("/w/toy.py", 14)
    assert [(f.name, f.line, f.code) for f in graph_break.user_stack] == [
        ("<module>", 20, "main()"),
        ("toy", 14, "if b.sum() < 0:"),
    ]


def _facts(metadata: dict, payload: str | None = None):
    record = trace.trace_record(metadata, payload)
    return trace.parse(record)


def test_records_are_keyed_by_compile_id_and_attempt():
    meta = {"frame_id": 2, "frame_compile_id": 1, "attempt": 1, "aot_forward_graph": {}}
    (fact,) = _facts(meta, "graph text")
    assert fact == trace.StageTraced("2/1_1", "aot_forward", "graph text")
    artifact = {"artifact": {"name": "after_pre_grad_graph", "encoding": "string"}}
    (fact,) = _facts({**artifact, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}, "g")
    assert fact == trace.StageTraced("0/0", "pre_grad", "g")


def test_symbols_metrics_and_unknown_kinds():
    symbol = {"symbol": "s97", "val": "12", "vr": "[2, int_oo]", "source": "L['a'].size()[0]"}
    (fact,) = _facts({"create_symbol": symbol, "frame_id": 0, "frame_compile_id": 1})
    assert (fact.compile_id, fact.symbol.name, fact.symbol.lower, fact.symbol.upper) == (
        "0/1",
        "s97",
        "2",
        "int_oo",
    )
    metrics = {
        "fail_type": "Unsupported",
        "fail_reason": "x",
        "guard_count": 3,
        "dynamo_config": "{}",
    }
    (fact,) = _facts({"compilation_metrics": metrics, "frame_id": 0, "frame_compile_id": 0})
    assert fact.failure == "Unsupported: x"
    assert fact.metrics == {"fail_type": "Unsupported", "fail_reason": "x", "guard_count": 3}
    assert _facts({"chromium_event": {}, "frame_id": 0, "frame_compile_id": 0}) == []
    # the trace names a file once by number; frames of later records give the number
    assert _facts({"str": ["file.py", 0]}) == [trace.StringInterned(0, "file.py")]


def test_symbol_guards_and_specializations_name_the_users_line():
    stack = [{"line": 3, "name": "f", "filename": 0, "loc": "return x.view(4, 2)"}]
    ids = {"frame_id": 1, "frame_compile_id": 0}
    (guarded,) = _facts({"guard_added_fast": {"expr": "Eq(s0, 8)", "user_stack": stack}, **ids})
    assert (guarded.guard.expression, guarded.guard.line, guarded.file_index) == ("Eq(s0, 8)", 3, 0)
    meta = {"symbol": "s0", "sources": ["L['x'].size()[0]"], "value": "8", "reason": "r"}
    (fixed,) = _facts({"symbolic_shape_specialization": {**meta, "user_stack": stack}, **ids})
    spec = fixed.specialization
    assert (spec.symbol, spec.value, spec.sources, spec.code) == (
        "s0",
        "8",
        ["L['x'].size()[0]"],
        "return x.view(4, 2)",
    )
    (made,) = _facts({"create_unbacked_symbol": {"symbol": "u0", "vr": "[-int_oo, int_oo]"}, **ids})
    assert made.symbol.unbacked and made.symbol.line is None


ONE_REASON = (
    "0/1: n == 3                                  # return x * n + 1  # prog.py:7 in scale\n"
    "User stack trace:\n"
    '  File "prog.py", line 7, in scale\n'
    "    return x * n + 1"
)


def test_one_recompile_reason_stays_whole():
    # torch writes one reason as it is: its lines are one reason, not four
    assert trace.recompile_reasons(ONE_REASON) == [ONE_REASON]


def test_several_reasons_are_one_per_failed_entry():
    import json

    payload = json.dumps(
        [ONE_REASON, "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"]
    )
    assert trace.recompile_reasons(payload) == [
        ONE_REASON,
        "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3",
    ]
    assert trace.recompile_reasons("") == []


def test_a_wrapped_break_is_split_into_torch_parts():
    text = (
        "Graph break in user code at prog.py:7\n"
        "Graph Break Reason: Encountered graph break when attempting to trace CALL: a "
        "function call, e.g. f(x, y):\n\n"
        "Failed to trace builtin operator\n"
        "  Explanation: Dynamo does not know how to trace builtin operator `print`\n"
        "  Hint: Avoid calling builtin `print`.\n"
        "  Hint: Please report an issue to PyTorch.\n\n"
        "  Developer debug context: builtin print\n\n"
        " For more details about this graph break, please visit: "
        "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html\n\n"
        "User code traceback:\n"
        '  File "prog.py", line 12, in outer\n    w = helper(w)\n'
        '  File "prog.py", line 7, in helper\n    print("inside helper")\n'
    )
    brk = trace.parse_graph_break(text)
    assert (brk.gb_type, brk.filename, brk.line) == (
        "Failed to trace builtin operator",
        "prog.py",
        7,
    )
    assert brk.wrapper.startswith("Encountered graph break when attempting to trace CALL")
    assert brk.explanation == "Dynamo does not know how to trace builtin operator `print`"
    assert brk.hints == ["Avoid calling builtin `print`.", "Please report an issue to PyTorch."]
    assert brk.context == "builtin print"
    assert brk.link == "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html"
    assert [f.line for f in brk.user_stack] == [12, 7]


def test_a_break_inside_torch_names_the_user_line():
    text = (
        "Graph break in user code at /x/site-packages/torch/optim/optimizer.py:79\n"
        "Graph Break Reason: Call to `torch._dynamo.graph_break()`\n"
        "  Explanation: User-inserted graph break.\n\n"
        "User code traceback:\n"
        '  File "train.py", line 28, in train_step\n    opt.step()\n'
        '  File "/x/site-packages/torch/optim/optimizer.py", line 79, in wrapper\n    g()\n'
    )
    brk = trace.parse_graph_break(text)
    assert (brk.filename, brk.line, brk.gb_type) == (
        "train.py",
        28,
        "Call to `torch._dynamo.graph_break()`",
    )
