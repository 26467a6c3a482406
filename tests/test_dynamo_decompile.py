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
    """One line per code object that does not decompile to source that compiles."""
    problems = []
    for code in codes:
        try:
            compile(decompile(code), f"<decompiled {code.co_name}>", "exec")
        except Exception as error:
            problems.append(f"{code.co_name}: {type(error).__name__}: {error}")
    return problems


# -- the corpus: one function per kind of graph break -----------------------------


def data_dependent_if(x):
    y = x * 2
    if y.sum() > 0:
        y = y + 1
    else:
        y = y - 1
    return y.cos()


def prints(x):
    y = x.sin()
    print("between graphs", y.shape)
    return y + 1


def item(x):
    scale = x.sum().item()
    return x * scale


def explicit_graph_break(x, n):
    y = x + n
    torch._dynamo.graph_break()
    z = y * y
    torch._dynamo.graph_break()
    return z - n


def loop_with_break(x, limit):
    # A graph break inside a loop makes Dynamo skip the frame, so the loop is
    # unrolled into the graph and the break comes after it.
    for step in range(10):
        x = x * 1.5
        if step == limit:
            break
    else:
        x = -x
    print("after the loop", step)
    while limit > 0:
        limit -= 1
        if limit == 1:
            break
        x = x + limit
    return x, step


def closures_and_nonlocal(x):
    calls = 0

    def bump(t):
        nonlocal calls
        calls += 1
        torch._dynamo.graph_break()
        return t + calls

    return bump(bump(x)), calls


def with_and_try(x):
    # A graph break inside try (or inside most with blocks) makes Dynamo skip the
    # frame, so the blocks are traced whole, a break sits between them, and one
    # break is inside `with torch.no_grad()`, whose block Dynamo rebuilds.
    try:
        with torch.enable_grad():
            y = x * 3
    except RuntimeError:
        y = x
    finally:
        y = y - 1
    print("between blocks")
    with torch.no_grad():
        z = y + 1
        torch._dynamo.graph_break()
        z = z * 2
    return z


def comprehensions(xs, wanted):
    doubled = [t * 2 for t in xs]
    print("between comprehensions")
    named = {f"w{i}": t.sum() for i, t in enumerate(doubled) if i in wanted}
    return sum(t for t in doubled), named, {t.numel() for t in xs}


def star_arguments(*args, **kwargs):
    total = sum(args)
    print("keywords", sorted(kwargs))
    return total * kwargs.get("scale", 1)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        h = self.linear(x).relu()
        if h.mean() > 0:
            h = h * 2
        print("block forward")
        return h + x


def inner(x):
    torch._dynamo.graph_break()
    return x + 1


def middle(x):
    return inner(x * 2) * 3


def nested_calls(x):
    return middle(x).sum() + middle(x - 1).sum()


def _vector(sign=1.0):
    return torch.arange(4.0) * sign + 0.5 * sign


CORPUS = {
    "data-dependent if": (data_dependent_if, [(_vector(),), (_vector(-1.0),)]),
    "print": (prints, [(_vector(),)]),
    ".item()": (item, [(_vector(),)]),
    "torch._dynamo.graph_break()": (explicit_graph_break, [(_vector(), 2)]),
    "loop with break": (loop_with_break, [(_vector(), 3), (_vector(), 20)]),
    "closure and nonlocal": (closures_and_nonlocal, [(_vector(),)]),
    "with and try": (with_and_try, [(_vector(),)]),
    "comprehensions": (comprehensions, [([_vector(), _vector(-1.0)], {1})]),
    "*args and **kwargs": (star_arguments, [(_vector(), _vector(), {"scale": 2})]),
    "nn.Module forward": (Block(), [(torch.ones(2, 4),), (-torch.ones(2, 4),)]),
    "nested calls": (nested_calls, [(_vector(),)]),
}


def _call(function, args):
    if args and isinstance(args[-1], dict):  # trailing dict: keyword arguments
        return function(*args[:-1], **args[-1])
    return function(*args)


@pytest.mark.parametrize("kind", list(CORPUS))
def test_graph_break_code_decompiles(kind):
    function, calls = CORPUS[kind]
    compiled = torch.compile(function, backend="eager")
    with dynamo_codes() as written:
        for args in calls:
            _call(compiled, args)
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
