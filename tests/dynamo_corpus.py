"""The graph-break corpus: one function per kind of graph break, with the calls that
make Dynamo write code for it. Used by tests/test_dynamo_decompile.py, the debugger's
tests (tests/debug/) and benchmarks/transformed_code.py."""

import torch


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


def call(function, args):
    if args and isinstance(args[-1], dict):  # trailing dict: keyword arguments
        return function(*args[:-1], **args[-1])
    return function(*args)
