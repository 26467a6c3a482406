"""Every code object torch 2.13's Dynamo writes decompiles to source that compiles.

Dynamo's bytecode is not compiler output (values live on the stack across jumps,
long SWAP/COPY runs, resume functions that jump into the middle of the original),
so it gets its own corpus: one function per kind of graph break, plus every
program in examples/. The bytecode hook collects each transformed code object and
each resume function Dynamo generates; all of them must decompile and recompile.
Lives outside tests/decompiler: the stdlib-only Pythons never collect it.
"""

import ast
import contextlib
import importlib.util
import re
import types
from pathlib import Path

import pytest
import torch
import torch._dynamo
from dynamo_corpus import CORPUS, call, data_dependent_if
from torch._dynamo.convert_frame import register_bytecode_hook

from depyf_report import decompile

pytestmark = pytest.mark.torch

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RESUME_PREFIX = "torch_dynamo_resume_in_"


@contextlib.contextmanager
def dynamo_codes():
    """Collect the code objects Dynamo writes while the block runs."""
    written: list[types.CodeType] = []

    def hook(code, new_code):
        written.append(new_code)
        if code.co_name.startswith(RESUME_PREFIX):  # Dynamo wrote this one too
            written.append(code)

    torch._dynamo.reset()
    handle = register_bytecode_hook(hook)
    try:
        yield written
    finally:
        handle.remove()
        torch._dynamo.reset()


def failures(codes: list[types.CodeType]) -> list[str]:
    """One line per code object that does not decompile to source that compiles, as
    plain decompiled code or as the report shows it (``dynamo=True``)."""
    problems = []
    for code in codes:
        for dynamo in (False, True):
            try:
                source = decompile(code, dynamo=dynamo)
                compile(source, f"<decompiled {code.co_name}>", "exec")
            except Exception as error:
                problems.append(f"{code.co_name} ({dynamo=}): {type(error).__name__}: {error}")
    return problems


@pytest.mark.parametrize("kind", list(CORPUS))
def test_graph_break_code_decompiles(kind):
    function, calls = CORPUS[kind]
    compiled = torch.compile(function, backend="eager")
    with dynamo_codes() as written:
        for args in calls:
            call(compiled, args)
    resumed = [code.co_name for code in written if code.co_name.startswith(RESUME_PREFIX)]
    assert resumed, f"no resume function: Dynamo did not break the graph ({len(written)} codes)"
    assert not failures(written), "\n".join(failures(written))


def _examples_with_main() -> list[Path]:
    def defines_main(path: Path) -> bool:
        tree = ast.parse(path.read_text())
        return any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body)

    return [path for path in sorted(EXAMPLES.glob("*.py")) if defines_main(path)]


@pytest.mark.parametrize("path", _examples_with_main(), ids=lambda path: path.stem)
def test_example_code_decompiles(path):
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with dynamo_codes() as written:
        module.main()
    assert written, "Dynamo wrote no code object"
    assert not failures(written), "\n".join(failures(written))


def test_a_graph_call_is_stored_straight_into_its_output():
    # Dynamo deletes its temporaries between the graph call and the store of its
    # output: they were bound just before, so the store can come first, with no
    # temporary for the call (and the program still behaves: tests/debug runs it)
    with dynamo_codes() as written:
        torch.compile(data_dependent_if, backend="eager")(torch.ones(3))
    source = decompile(written[0])
    assert re.search(r"^\s*graph_out_0 = _t\d+\(x\)$", source, re.M), source
    stores = source.index("graph_out_0 =")
    assert stores < source.index("del tmp_1") < source.index("del tmp_3"), source


def test_the_report_shows_the_graph_call_and_the_resume_calls_plainly():
    with dynamo_codes() as written:
        torch.compile(data_dependent_if, backend="eager")(torch.ones(3))
    source = decompile(written[0], dynamo=True)
    assert "record_pregraph_bytecode_enter() / _exit()" in source, source
    assert "tmp_1" not in source and "extend" not in source, source
    assert re.search(r"^\s*graph_out_0 = __compiled_fn_\w+\(x\)  # line \d+$", source, re.M)
    assert re.search(r"return __resume_at_\w+\(\[\], \[\], ", source), source
