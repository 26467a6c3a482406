"""Weight of the provenance pages of a large model: each page holds its own graph only.

    .venv/bin/python benchmarks/provenance_weight.py [--graphs 4] [--layers 32]

Builds a synthetic dump shaped like a decoder model under Inductor: ``--graphs``
graphs of ``--layers`` layers each, every layer 12 Dynamo nodes from
``modeling.py:Attention.forward`` and ``modeling.py:Mlp.forward`` (regions of
the source pane), as many post-grad nodes, and one fused kernel per 3 nodes with
Inductor's node mappings and stack traces. Renders it, then prints per page its
size, the size of its inline mapping, its line ids and edges, and the time to
build one graph's mapping. Prints numbers; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from depyf_report.dump import (  # noqa: E402
    SCHEMA_VERSION,
    CodeView,
    CompiledGraph,
    Function,
    GraphStage,
    Layout,
    Manifest,
    NodeMappings,
    OutputCode,
    SourceRegion,
    load_dump,
    to_json,
    write_json,
)

MODEL = "/src/model.py"
MODELING = "/src/modeling.py"
ATTENTION = "".join(f"        h = op_{n}(h)\n" for n in range(6))  # lines 11-16
MLP = "".join(f"        h = op_{n}(h)\n" for n in range(6))  # lines 21-26
PER_LAYER = 12


def graph(index: int, layers: int) -> CompiledGraph:
    dynamo, post, calls, kernels = [], [], [], {}
    pre_to_post, kernel_to_post, stacks = {}, {}, {}
    for layer in range(layers):
        names = []
        for k in range(PER_LAYER):
            name = f"n{layer}_{k}"
            line, fn = (11 + k, "forward") if k < 6 else (21 + k - 6, "forward")
            comment = f"        # File: {MODELING}:{line} in {fn}, code: h = op(h)"
            node = f'        {name}: "f32[8, 4096]" = torch.op({name}_in)'
            dynamo += [comment, node]
            post += [comment, f'        {name}: "f32[8, 4096]" = torch.ops.aten.mul.Tensor(x, y)']
            pre_to_post[name] = [name]
            names.append((name, line))
        for start in range(0, PER_LAYER, 3):
            key = f"triton_poi_fused_mul_{layer}_{start}:{len(kernels) + 1}"
            part = names[start : start + 3]
            kernel_to_post[key] = [n for n, _ in part]
            stacks[key] = [
                f'  File "{MODEL}", line 40, in forward\n    h = layer(h)\n'
                f'  File "{MODELING}", line {line}, in forward\n    h = op(h)\n'
                for _, line in part
            ]
            kernels[key] = None
            calls += [f"        # [Provenance debug handles] {key}", f"        {key[:-2]}.run(x)"]
    header = "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n"
    output = "# AOT ID: ['0_inference']\nclass Runner:\n    def call(self, args):\n"
    return CompiledGraph(
        id=f"g{index}",
        name=f"__compiled_fn_{index}",
        compile_id=f"{index}/0",
        function="forward",
        backend="inductor",
        stages=[
            GraphStage("dynamo", header + "\n".join(dynamo) + "\n        return (x,)\n"),
            GraphStage("post_grad_inference", header + "\n".join(post) + "\n"),
        ],
        output_code=[
            OutputCode(
                "inference",
                output + "\n".join(calls) + "\n",
                provenance=NodeMappings(pre_to_post, kernel_to_post, stacks),
            )
        ],
        sources=[
            SourceRegion(
                MODELING, "Attention.forward", 10, "    def forward(self, h):\n" + ATTENTION
            ),
            SourceRegion(MODELING, "Mlp.forward", 20, "    def forward(self, h):\n" + MLP),
        ],
    )


def make_dump(root: Path, graphs: int, layers: int) -> Path:
    layout = Layout(root)
    source = "def forward(self, h):\n" + "    h = layer(h)\n" * 3
    function = Function(
        "forward", "forward", "Model.forward", MODEL, 38, 41, source, CodeView("forward")
    )
    write_json(layout.function(function.id), to_json(function))
    for index in range(graphs):
        write_json(layout.graph(f"g{index}"), to_json(graph(index, layers)))
    manifest = Manifest(
        SCHEMA_VERSION, "0", "3.11", "2.13.0", "Linux", [], "/", 1, "2026-01-01T00:00:00Z"
    )
    manifest.status = "complete"
    write_json(layout.manifest, to_json(manifest))
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", type=int, default=4)
    parser.add_argument("--layers", type=int, default=32)
    args = parser.parse_args()

    from depyf_report.render import render
    from depyf_report.render.build_provenance import provenance_of
    from depyf_report.render.plan import process_contexts

    with tempfile.TemporaryDirectory() as tmp:
        dump = make_dump(Path(tmp) / "dump", args.graphs, args.layers)
        (ctx,) = process_contexts(load_dump(dump))
        start = time.perf_counter()
        provenance_of(ctx, ctx.dump.graphs["g0"])
        build = time.perf_counter() - start
        site = render(dump, Path(tmp) / "site", progress=False).parent
        nodes = args.layers * PER_LAYER
        print(f"{args.graphs} graphs x {nodes} Dynamo nodes, {nodes // 3} kernels each")
        print(f"one graph's mapping built in {build * 1000:.0f} ms")
        print(f"{'page':<22}{'bytes':>10}{'mapping':>10}{'line ids':>10}{'edges':>8}")
        for page in sorted(site.glob("provenance-*.html")):
            html = page.read_text()
            # The mapping is a data file beside the page: depyfPart("name",{...});
            name = re.search(r'id="provenance-data" data-part="([^"]+)"', html)[1]
            script = (site / name).read_text()
            data = json.loads(script[script.index(",") + 1 : script.rindex(")")])
            print(
                f"{page.name:<22}{len(html.encode()):>10}{len(script.encode()):>10}"
                f"{len(data['ids']):>10}{_edges(data):>8}"
            )
        others = [p for p in site.glob("*.html") if not p.name.startswith("provenance-")]
        carrying = [p.name for p in others if "provenance-data" in p.read_text()]
        print(f"other pages holding a mapping: {len(carrying)} of {len(others)}")


def _edges(data: dict) -> int:
    """The edges the mapping holds: each line's list of targets (mapping_json)."""
    return sum(len(data["targets"][n]) for n in data["down"][1::2])


if __name__ == "__main__":
    main()
