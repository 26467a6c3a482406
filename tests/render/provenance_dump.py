"""A dump of one compiled graph with Inductor's provenance, shaped like the toy
example's first graph under torch 2.13 (texts trimmed), for render's tests.

``hostile=True`` puts markup in the file name, the function's name, a kernel key
and a stack trace, as a crafted dump could. ``triton=True`` holds the same graph
as Inductor writes it for a CUDA device instead (``data/triton/``), its
provenance read by capture's own parsers. ``helper=True`` moves line 13's work
into a function of another file, ``helpers.py:scale`` (line 5), which the source
pane shows as a region of its own (not in a dump of ``schema`` < 4).
"""

from __future__ import annotations

from pathlib import Path

from depyf_report.capture.kernels import parse_output_code
from depyf_report.capture.provenance import kernel_stacks, node_mappings
from depyf_report.dump import (
    SCHEMA_VERSION,
    CodeView,
    CompiledGraph,
    Function,
    GraphStage,
    Kernel,
    Layout,
    Manifest,
    NodeMappings,
    OutputCode,
    SourceRegion,
    to_json,
    write_json,
)
from depyf_report.render.provenance import is_hub

SOURCE = (
    "def toy_example(a, b):\n"
    "    x = a / (torch.abs(a) + 1)\n"
    "    if b.sum() < 0:\n"
    "        b = b * -1\n"
    "    return x * b\n"
)
DYNAMO = """class GraphModule(torch.nn.Module):
    def forward(self, L_a_: "f32[10][1]cpu", L_b_: "f32[10][1]cpu"):
        l_a_ = L_a_
        l_b_ = L_b_

        # File: {file}:13 in toy_example, code: x = a / (torch.abs(a) + 1)
        abs_1: "f32[10][1]cpu" = torch.abs(l_a_)
        add: "f32[10][1]cpu" = abs_1 + 1;  abs_1 = None
        x: "f32[10][1]cpu" = l_a_ / add;  l_a_ = add = None

        # File: {file}:14 in toy_example, code: if b.sum() < 0:
        sum_1: "f32[][]cpu" = l_b_.sum();  l_b_ = None
        lt: "b8[][]cpu" = sum_1 < 0;  sum_1 = None
        return (lt, x)
"""
POST_GRAD = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[10][1]cpu", arg1_1: "f32[10][1]cpu"):
        # File: {file}:14 in toy_example, code: if b.sum() < 0:
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(arg1_1);  arg1_1 = None
        lt: "b8[][]cpu" = torch.ops.aten.lt.Scalar(sum_1, 0);  sum_1 = None

        # File: {file}:13 in toy_example, code: x = a / (torch.abs(a) + 1)
        abs_1: "f32[10][1]cpu" = torch.ops.aten.abs.default(arg0_1)
        add: "f32[10][1]cpu" = torch.ops.aten.add.Tensor(abs_1, 1);  abs_1 = None
        div: "f32[10][1]cpu" = torch.ops.aten.div.Tensor(arg0_1, add);  arg0_1 = add = None
        return (lt, div)
"""
KERNEL_SOURCE = 'extern "C" void kernel(const float* in_ptr0)\n{\n    out_ptr0[0] = 0;\n}\n'
OUTPUT = """# AOT ID: ['0_inference']
import torch
async_compile = AsyncCompile()


{kernel} = async_compile.cpp_pybinding(['const float*'], r'''
{source}''')


async_compile.wait(globals())

class Runner:
    def call(self, args):
        arg0_1, arg1_1 = args
        buf1 = empty_strided_cpu((10, ), (1, ), torch.float32)
        # [Provenance debug handles] {kernel}:1
        {kernel}(arg1_1, arg0_1, buf0, buf2, buf1)
        return (buf2, buf1, )
"""
KERNEL = "cpp_fused_abs_add_div_lt_sum_0"
# Lines of the texts above, for the tests.
DYNAMO_LINES = {"abs_1": 7, "add": 8, "x": 9, "sum_1": 12, "lt": 13}
POST_GRAD_LINES = {"sum_1": 4, "lt": 5, "abs_1": 8, "add": 9, "div": 10}
KERNEL_LINES = (*range(6, 12), 20, 21)  # its definition; the handle comment and the call
HANDLE_LINE = 20
TRITON = Path(__file__).parent / "data" / "triton"
HELPER_FILE = "/home/user/helpers.py"
HELPER_SOURCE = "def scale(a):\n    return a / (torch.abs(a) + 1)\n"  # from line 4


def triton_graph(filename: str) -> tuple[list[GraphStage], OutputCode]:
    """The recorded Triton sample's stages and output module, with its provenance
    as capture reads it from the two artifacts Inductor logs."""
    data = {p.name: p.read_text().replace("{file}", filename) for p in TRITON.iterdir()}
    output = parse_output_code(data["output_code.txt"])
    pre_to_post, kernel_to_post = node_mappings(data["node_mappings.json"])
    output.provenance = NodeMappings(
        pre_to_post, kernel_to_post, kernel_stacks(data["kernel_stack_traces.json"])
    )
    stages = [
        GraphStage("dynamo", data["dynamo.txt"]),
        GraphStage("post_grad_inference", data["post_grad.txt"]),
    ]
    return stages, output


def make_provenance_dump(
    root: Path,
    *,
    hostile: bool = False,
    recorded: bool = True,
    triton: bool = False,
    helper: bool = False,
    schema: int = SCHEMA_VERSION,
) -> Path:
    tag = "<script>alert(1)</script>" if hostile else ""
    filename = f"/home/user/toy{tag}.py"
    kernel_key = f"{KERNEL}:1" if not hostile else f"{KERNEL}:1{tag}"
    layout = Layout(Path(root))
    mappings = NodeMappings(
        pre_to_post={"sum_1": ["sum_1"], "lt": ["lt"], "abs_1": ["abs_1"], "add": ["add"]}
        | {"x": ["div"]},
        kernel_to_post={kernel_key: ["sum_1", "lt", "div", "add", "abs_1"]},
        kernel_stacks={
            kernel_key: [
                f'  File "{filename}", line 14, in toy_example\n    if b.sum() < 0:{tag}\n',
                f'  File "{filename}", line 13, in toy_example\n    x = a / (torch.abs(a) + 1)\n',
            ]
        },
    )
    output = OutputCode(
        part="inference",
        source=OUTPUT.format(kernel=KERNEL, source=KERNEL_SOURCE),
        kernels=[Kernel(KERNEL, "cpp", KERNEL_SOURCE)],
        provenance=mappings if recorded else None,
    )
    graph = CompiledGraph(
        id="g0",
        name=f"__compiled_fn_1{tag}",
        compile_id="0/0",
        function="toy_example",
        backend="inductor",
        stages=[
            GraphStage("dynamo", DYNAMO.format(file=filename)),
            GraphStage("post_grad_inference", POST_GRAD.format(file=filename)),
        ],
        output_code=[output],
    )
    if triton:
        graph.stages, output = triton_graph(filename)
        graph.output_code = [output]
    if helper:
        _move_line_13_to_a_helper(graph, filename, schema)
    function = Function(
        id="toy_example",
        name=f"toy_example{tag}",
        qualname=f"toy_example{tag}",
        filename=filename,
        first_line=12,
        last_line=16,
        source=SOURCE,
        original=CodeView(name="toy_example", decompiled=SOURCE),
    )
    write_json(layout.graph(graph.id), to_json(graph))
    write_json(layout.function(function.id), to_json(function))
    manifest = Manifest(
        schema_version=schema,
        tool_version="0.1.0",
        python_version="3.11.9",
        torch_version="2.13.0",
        platform="Linux-x86_64",
        argv=["toy.py"],
        cwd="/home/user",
        pid=1,
        started="2026-01-01T00:00:00Z",
        ended="2026-01-01T00:00:09Z",
        status="complete",
    )
    write_json(layout.manifest, to_json(manifest))
    return Path(root)


def _move_line_13_to_a_helper(graph: CompiledGraph, filename: str, schema: int) -> None:
    """Line 13's nodes come from ``scale`` (line 5 of helpers.py), which line 13 calls."""
    comment = f"{filename}:13 in toy_example"
    for stage in graph.stages:
        stage.text = stage.text.replace(comment, f"{HELPER_FILE}:5 in scale")
    frame = f'  File "{filename}", line 13, in toy_example\n    x = scale(a)\n'
    inner = f'  File "{HELPER_FILE}", line 5, in scale\n    return a / (torch.abs(a) + 1)\n'
    for out in graph.output_code:
        if out.provenance is not None:
            for stacks in out.provenance.kernel_stacks.values():
                stacks[:] = [frame + inner if ", line 13," in s else s for s in stacks]
    if schema >= 4:
        graph.sources = [SourceRegion(HELPER_FILE, "scale", 4, HELPER_SOURCE)]


def reached(prov, start: str) -> set[str]:
    """Every line reached from ``start`` along the provenance edges: what it became."""
    seen, todo = set(), [start]
    while todo:
        at = todo.pop()
        for a, b in prov.edges:
            if a == at and b not in seen:
                seen.add(b)
                todo.append(b)
    return {line for line in seen if not is_hub(line)}
