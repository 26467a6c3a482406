"""A synthetic dump shaped like what capture writes, for render's tests and benchmark.

Each "model" is a user function that breaks its graph once: its cache entry calls
``__compiled_fn_<n>`` and a resume function, which has an entry and a graph of its
own. Every third model is recompiled (a second cache entry), so the dump has
recompile reasons too. ``make_dump(root, graphs=N)`` writes exactly N graphs;
``guards=G`` gives the dump G guards in all, most of them in a module tree four
levels under ``L['self']``, as a transformers model's entries have.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from depyf_report.dump import (
    SCHEMA_VERSION,
    CacheEntry,
    CodeView,
    Compile,
    CompiledGraph,
    DynamicSymbol,
    FrameSummary,
    Function,
    GraphBreak,
    GraphStage,
    Guard,
    GuardFailure,
    GuardSet,
    Kernel,
    Layout,
    Manifest,
    OutputCode,
    ResumePoint,
    to_json,
    write_json,
)

FILENAME = "/home/user/project/model.py"


def make_dump(
    root: Path,
    graphs: int = 6,
    *,
    processes: int = 1,
    markup: bool = False,
    status: str = "complete",
    guards: int = 0,
) -> Path:
    """Write a dump of ``graphs`` compiled graphs per process under ``root``."""
    root = Path(root)
    # Each graph is one cache entry; each entry has three guards of its own.
    extra = max(0, -(-guards // max(graphs, 1)) - 3) if guards else 0
    for rank in range(processes):
        layout = Layout(root) if rank == 0 else Layout(root).process(f"rank{rank}")
        name = "" if rank == 0 else f"rank{rank}"
        _write_process(
            layout, name, rank if processes > 1 else None, processes, graphs, markup, extra
        )
        write_json(layout.manifest, to_json(_manifest(name, rank, processes, status)))
    return root


# A uuid as torch 2.13 writes it into a graph's name: dashes made underscores.
UUID = "7e32b31e_ed83_40af_b2ba_f04884d4503d"


def name_graph_one_with_uuid(root: Path) -> str:
    """Rename graph 1 of a ``make_dump`` dump as torch 2.13 names graphs,
    ``__compiled_fn_1_<uuid>``, in its record and in the code that calls it; the name."""
    name = f"__compiled_fn_1_{UUID}"
    for path in [Path(root) / "graphs" / "g1.json", Path(root) / "functions" / "f0.json"]:
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"__compiled_fn_1\b", name, text), encoding="utf-8")
    return name


def _manifest(name: str, rank: int, processes: int, status: str) -> Manifest:
    return Manifest(
        schema_version=SCHEMA_VERSION,
        tool_version="0.1.0",
        python_version="3.11.9",
        torch_version="2.13.0",
        platform="Linux-x86_64",
        argv=["train.py", "--epochs", "1"],
        cwd="/home/user/project",
        pid=4242 + rank,
        started="2026-01-01T00:00:00Z",
        ended=None if status == "running" else "2026-01-01T00:00:09Z",
        status=status,
        rank=rank if processes > 1 else None,
        world_size=processes if processes > 1 else None,
        process=f"processes/{name}" if name else "",
    )


def _write_process(layout, name, rank, processes, graphs, markup, extra=0):
    counter = itertools.count(1)
    frame = itertools.count(0)
    written = 0
    for model in itertools.count(0):
        if written >= graphs:
            return
        room = graphs - written
        recompile = model % 3 == 2 and room >= 3
        written += _write_model(layout, model, counter, frame, recompile, room, markup, extra)


def _write_model(layout, model, counter, frame, recompile, room, markup, extra=0) -> int:
    """One user function (plus its resume function); returns graphs written."""
    tag = "<b>&amp;" if markup else ""
    fn_name = f"forward_{model}"
    fn_id = f"f{model}"
    resume_id = f"f{model}r"
    first = 10 + model * 20
    with_resume = room >= 2
    entries = []
    frame_id = next(frame)
    for version in range(2 if recompile else 1):
        compile_id = f"{frame_id}/{version}"
        graph = _write_graph(layout, next(counter), compile_id, fn_id, markup, first + 1)
        resume_ids = [resume_id] if with_resume and version == 0 else []
        entries.append(_entry(compile_id, graph, resume_ids, first, tag, version, extra))
        reasons = [f"tensor 'L['x']' size mismatch at index 0. expected 8, actual {16 * version}"]
        breaks = [_graph_break(first + 3, fn_name)] if resume_ids else []
        _write_compile(layout, compile_id, fn_id, graph, breaks, reasons if version else [])
    written = len(entries)
    function = Function(
        id=fn_id,
        name=fn_name + tag,
        qualname=f"Model{model}.{fn_name}{tag}",
        filename=FILENAME + tag,
        first_line=first,
        last_line=first + 6,
        source=_source(fn_name),
        original=_code(fn_name, _source(fn_name)),
        entries=entries,
    )
    write_json(layout.function(fn_id), to_json(function))
    if with_resume:
        written += _write_resume(layout, model, counter, frame, fn_id, resume_id, first, tag, extra)
    return written


def _write_resume(layout, model, counter, frame, parent, resume_id, first, tag, extra=0) -> int:
    name = f"torch_dynamo_resume_in_forward_{model}_at_{first + 3}"
    compile_id = f"{next(frame)}/0"
    graph = _write_graph(layout, next(counter), compile_id, resume_id, False, first + 4)
    _write_compile(layout, compile_id, resume_id, graph, [], [])
    source = _source(f"forward_{model}")
    function = Function(
        id=resume_id,
        name=name,
        qualname=name,
        filename=FILENAME + tag,
        first_line=first,
        last_line=first + 6,
        source=source,
        original=_code(name, "def resume(b, x):\n    b = b * -1\n    return x * b\n"),
        resume=ResumePoint(parent, first + 3, first + 4, offset=30, original=parent),
        entries=[_entry(compile_id, graph, [], first, tag, 0, extra)],
    )
    write_json(layout.function(resume_id), to_json(function))
    return 1


def _source(name: str) -> str:
    return (
        f"def {name}(self, x, b):\n"
        "    y = self.linear(x) / (torch.abs(x) + 1)\n"
        "    y = torch.relu(y)\n"
        "    if b.sum() < 0:\n"
        "        b = b * -1\n"
        "    return y * b\n"
    )


def _code(name: str, text: str) -> CodeView:
    dis = "\n".join(f"  {i * 2:>4} LOAD_FAST {i % 3} (x)" for i in range(12))
    return CodeView(name=name, decompiled=text, dis=dis)


def _entry(
    compile_id, graph: CompiledGraph, resume_ids, first, tag, version, extra=0
) -> CacheEntry:
    where = f"{FILENAME}:{first + 1} in forward"
    tree = (
        "TREE_GUARD_MANAGER:\n"
        "+- RootGuardManager\n"
        "| +- GLOBAL_STATE: ___check_global_state()\n"
        "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x')\n"
        f"| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, torch.float32, size=[{8 + version}])"
        f"  # y = self.linear(x) / (torch.abs(x) + 1)  # {where}\n"
        f"| +- GuardManager: source=L['b{tag}'], accessed_by=DictGetItemGuardAccessor('b')\n"
        f"| | +- TYPE_MATCH: ___check_type_id(L['b{tag}'], 94{version})  # if b.sum() < 0:  "
        f"# {FILENAME}:{first + 3} in forward\n"
    )
    module_tree, module_guards = _module_guards(extra)
    tree += module_tree
    guards = [
        Guard("___check_global_state()", kind="GLOBAL_STATE"),
        Guard(
            f"check_tensor(L['x'], Tensor, torch.float32, size=[{8 + version}])",
            kind="TENSOR_MATCH",
            user_source="L['x']",
            filename=FILENAME,
            line=first + 1,
        ),
        Guard(f"___check_type_id(L['b{tag}'], 94{version})", kind="TYPE_MATCH", line=first + 3),
        *module_guards,
    ]
    calls = "".join(f"    return __resume_at_30_{i + 2}(b, y)\n" for i, _ in enumerate(resume_ids))
    transformed = (
        "def forward(self, x, b):\n"
        f"    __temp_2, = {graph.name}(x)\n"
        "    y = __temp_2\n" + (calls or "    return y * b\n")
    )
    return CacheEntry(
        compile_id=compile_id,
        guards=GuardSet(tree=tree, guards=guards, shape_guards=["L['x'].size()[0] == 8"]),
        code=_code("forward", transformed),
        graphs=[graph.id],
        resume_functions=list(resume_ids),
    )


def _module_guards(count: int) -> tuple[str, list[Guard]]:
    """``count`` ID_MATCH guards on the parameters of layers of ``L['self']``, ten a
    layer, each layer's manager four levels deep, as torch prints a model's tree."""
    if not count:
        return "", []
    lines = [
        "| +- GuardManager: source=L['self'], accessed_by=FrameLocalsGuardAccessor(key='self')",
        "| | +- GuardManager: source=L['self']._modules, accessed_by=GetAttrGuardAccessor(_modules)",
    ]
    guards = []
    for n in range(count):
        layer = f"L['self']._modules['layers']._modules['{n // 10}']"
        if n % 10 == 0:
            lines.append(
                f"| | | +- GuardManager: source={layer}, accessed_by=DictGetItemGuardAccessor"
            )
        expression = f"___check_obj_id({layer}._parameters['weight_{n % 10}'], {140000 + n})"
        lines.append(f"| | | | +- ID_MATCH: {expression}  # self.layers[{n // 10}]")
        guards.append(Guard(expression, kind="ID_MATCH", user_source=layer))
    return "\n".join(lines) + "\n", guards


def _graph_break(line: int, fn_name: str) -> GraphBreak:
    stack = [FrameSummary(FILENAME, line, fn_name, "if b.sum() < 0:")]
    return GraphBreak(
        reason="Data-dependent jump: generic_jump TensorVariable()",
        filename=FILENAME,
        line=line,
        user_stack=stack,
    )


def _failure(compile_id: str, reason: str) -> GuardFailure:
    """The first entry's size guard failed, as capture reads torch's reason."""
    entry = f"{compile_id.split('/')[0]}/0"
    return GuardFailure(f"{entry}: {reason}", entry, reason, "size", "L['x']")


def _write_compile(layout, compile_id, fn_id, graph, breaks, reasons):
    record = Compile(
        id=compile_id,
        frame_id=int(compile_id.split("/")[0]),
        frame_compile_id=int(compile_id.split("/")[1]),
        function=fn_id,
        backend="inductor",
        graph_breaks=breaks,
        recompile_reasons=reasons,
        guard_failures=[_failure(compile_id, reason) for reason in reasons],
        dynamic_symbols=[DynamicSymbol("s0", "L['x'].size()[0]", "2", "int_oo", "8")],
        graphs=[graph.id],
        metrics={"entire_frame_compile_time_s": 0.5, "inductor_compile_time_s": 0.25},
    )
    write_json(layout.compile(compile_id), to_json(record))


def _write_graph(layout, n, compile_id, fn_id, markup, line) -> CompiledGraph:
    name = f"__compiled_fn_{n}"
    label = "<script>alert(1)</script>" if markup else "x"
    stages = [GraphStage(kind, _graph_text(kind, label, line)) for kind in _STAGES]
    graph = CompiledGraph(
        id=f"g{n}",
        name=name,
        compile_id=compile_id,
        function=fn_id,
        backend="inductor",
        stages=stages,
        output_code=[OutputCode("forward", _output_code(n), [_kernel(n, 0), _kernel(n, 1)])],
    )
    write_json(layout.graph(graph.id), to_json(graph))
    return graph


_STAGES = ("dynamo", "aot_forward", "post_grad_forward")


def _graph_text(kind: str, label: str, line: int) -> str:
    body = "\n".join(
        f'        mul_{i}: "f32[8, 16][16, 1]cpu" = torch.ops.aten.mul.Tensor(l_{label}_, {i})'
        for i in range(12)
    )
    return (
        f"class GraphModule(torch.nn.Module):  # {kind}\n"
        f'    def forward(self, L_{label}_: "f32[8, 16][16, 1]cpu"):\n'
        f"        l_{label}_ = L_{label}_\n"
        f"        # File: {FILENAME}:{line} in forward, code: y = self.linear(x)\n"
        f"{body}\n        return (mul_11,)\n"
    )


def _output_code(n: int) -> str:
    lines = "\n".join(
        f"    buf{i} = empty_strided_cpu((8, 16), (16, 1), torch.float32)" for i in range(10)
    )
    return (
        "# AOT ID: ['0_forward']\n"
        "from torch._inductor.codecache import AsyncCompile\n"
        "async_compile = AsyncCompile()\n"
        f"cpp_fused_mul_{n}_0 = async_compile.cpp_pybinding(['float*'], '''...''')\n\n"
        f"def call(args):\n    arg0_1, = args\n{lines}\n"
        f"    cpp_fused_mul_{n}_0(arg0_1, buf0)\n    return (buf0, )\n"
    )


def _kernel(n: int, k: int) -> Kernel:
    body = "\n".join(f"            tmp{i} = tmp{i - 1} * 2.0f;" for i in range(1, 14))
    source = (
        '#include "/tmp/torchinductor/cpp_prefix.h"\n'
        'extern "C" void kernel(const float* in_ptr0, float* out_ptr0)\n{\n'
        "    for (long x0 = 0; x0 < 128L; x0 += 1L)\n    {\n        {\n"
        f"            auto tmp0 = in_ptr0[x0];\n{body}\n"
        "            out_ptr0[x0] = tmp13;\n        }\n    }\n}\n"
    )
    return Kernel(name=f"cpp_fused_mul_{n}_{k}", language="cpp", source=source)
