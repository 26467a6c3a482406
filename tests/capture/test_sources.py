"""Which function a frame is in, and the source capture stores for it."""

from depyf_report.capture.sources import SourceReader, frames_named
from depyf_report.dump import CompiledGraph, GraphStage, NodeMappings, OutputCode

CODE = """import torch


class Outer:
    class Inner(torch.nn.Module):
        @staticmethod
        @torch.no_grad()
        def forward(x):
            def helper(y):
                return y + 1
            return helper(x)


y = torch.ones(3)
"""


def test_a_frame_is_stored_as_its_innermost_function_named_as_python_does(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(CODE)
    reader = SourceReader()
    method = reader.region(str(path), 11, "forward")
    assert (method.qualname, method.first_line) == ("Outer.Inner.forward", 6)
    assert method.text.splitlines()[0] == "        @staticmethod"
    assert method.text.splitlines()[-1] == "            return helper(x)"
    helper = reader.region(str(path), 10, "helper")
    assert (helper.qualname, helper.first_line) == ("Outer.Inner.forward.<locals>.helper", 9)
    module = reader.region(str(path), 14, "<module>")
    assert (module.qualname, module.first_line, module.text) == (
        "<module>",
        14,
        "y = torch.ones(3)\n",
    )
    assert reader.region(str(path), 99, "forward") is None
    assert reader.region(str(tmp_path / "gone.py"), 3, "f") is None


def test_the_compiled_function_and_torchs_files_are_left_out(tmp_path):
    path = str(tmp_path / "model.py")
    (tmp_path / "model.py").write_text(CODE)
    torch_file = "/usr/lib/python3.11/site-packages/torch/nn/modules/linear.py"
    frames = [(path, 10, "helper"), (path, 11, "forward"), (torch_file, 125, "forward")]
    regions = SourceReader().regions(frames, skip=(path, 9, 10))
    assert [(r.qualname, r.first_line) for r in regions] == [("Outer.Inner.forward", 6)]
    # A frame inside a region already found adds nothing.
    regions = SourceReader().regions([(path, 11, "forward"), (path, 7, "forward")], skip=None)
    assert len(regions) == 1


def test_frames_come_from_file_comments_and_kernel_stack_traces():
    graph = CompiledGraph(
        id="g",
        name="g",
        compile_id="0/0",
        function=None,
        stages=[GraphStage("dynamo", "        # File: /m.py:20 in forward, code: h = f(x)\n")],
        output_code=[
            OutputCode(
                "forward",
                "",
                provenance=NodeMappings(
                    kernel_stacks={"k:1": ['  File "/m.py", line 40, in run\n    g()\n']}
                ),
            )
        ],
    )
    assert frames_named(graph) == [("/m.py", 20, "forward"), ("/m.py", 40, "run")]
