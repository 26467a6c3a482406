"""pdb, driven through stdin, stops in the dumped files with the expected locals."""

import re
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.torch

PROGRAM = textwrap.dedent(
    """
    import sys
    import torch
    import depyf_report

    def scale_sum(a, b):
        x = a + b
        print("graph break")
        return (x * 2).sum()

    def main():
        compiled = torch.compile(scale_sum, backend=sys.argv[2])
        return compiled(torch.ones(3), torch.full((3,), 2.0))

    with depyf_report.prepare_debug(sys.argv[1]):
        main()
    with depyf_report.debug():
        result = main()
    print("RESULT", result.item())
    """
)
# One banner line per dumped source: "  function NAME (COMPILE_ID): FILE:LINE".
BANNER_LINE = re.compile(
    r"^  (?P<kind>function|graph) (?P<name>\S+) \((?P<id>[^)]*)\): (?P<at>.+)$"
)


def _start(tmp_path, backend: str) -> subprocess.Popen:
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    return subprocess.Popen(
        [sys.executable, str(script), str(tmp_path / "dump"), backend],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )


def _banner(process: subprocess.Popen) -> dict[str, str]:
    """Read stderr up to the pause: source name -> "FILE:LINE" of what debug() lists."""
    sources = {}
    for line in process.stderr:
        if line.startswith("depyf-report: paused"):
            return sources
        match = BANNER_LINE.match(line.rstrip("\n"))
        if match is not None:
            sources.setdefault(match["name"], match["at"])
    raise AssertionError("debug() never paused")


def _drive(tmp_path, backend: str, graph_prefix: str) -> tuple[str, str, str]:
    process = _start(tmp_path, backend)
    sources = _banner(process)
    function_at = sources["scale_sum"]
    graph_at = next(at for name, at in sources.items() if name.startswith(graph_prefix))
    assert re.search(r"\.py:\d+$", function_at), f"scale_sum was not substituted: {function_at}"
    commands = [
        f"break {function_at}",
        f"break {graph_at}",
        "continue",
        "p sorted(locals())",
        "p a.tolist(), b.tolist()",
        "continue",
        "p sorted(locals())",
        "continue",
    ]
    out, err = process.communicate("\n".join(commands) + "\n", timeout=240)
    assert process.returncode == 0, err[-3000:]
    return out, function_at, graph_at


def _stop_line(at: str, function: str) -> str:
    file, line = at.rsplit(":", 1)
    return f"> {file}({line}){function}()"


def test_pdb_stops_in_the_dumped_function_and_graph_eager(tmp_path):
    out, function_at, graph_at = _drive(tmp_path, "eager", "dynamo_graph")
    assert str(tmp_path / "dump" / "debug") in function_at
    stops = [line for line in out.splitlines() if "> " in line and ".py(" in line]
    assert _stop_line(function_at, "scale_sum") in stops[1]  # stops[0]: debug()'s pause
    assert _stop_line(graph_at, "forward") in stops[2]
    assert "['a', 'b']" in out  # the function's locals at its first line: the arguments
    assert "([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])" in out
    assert "['L_a_', 'L_b_', 'self']" in out  # the graph's inputs, named by Dynamo
    assert "RESULT 18.0" in out


def test_pdb_stops_in_the_dumped_function_and_graph_aot_eager(tmp_path):
    out, function_at, graph_at = _drive(tmp_path, "aot_eager", "aot_")
    stops = [line for line in out.splitlines() if "> " in line and ".py(" in line]
    assert _stop_line(function_at, "scale_sum") in stops[1]
    assert _stop_line(graph_at, "forward") in stops[2]
    assert "['a', 'b']" in out
    assert "['args_list', 'self']" in out  # AOT's boxed calling convention
    assert "RESULT 18.0" in out
