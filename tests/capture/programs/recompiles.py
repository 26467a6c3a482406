"""Recompiles four ways: a shape, a Python int, a module attribute, the limit.

Writes torch's own record of every compile (compile id, recompile reason,
guard count, failure) as JSON to the path in $TORCH_METRICS, if set, so a test
can compare the report's counts with torch's.
"""

import json
import os
import sys

import torch
import torch._dynamo


def scale(x, n):
    return x * n + 1


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.doubled = True

    def forward(self, x):
        y = self.lin(x)
        if self.doubled:
            y = y * 2
        return y.relu()


def pick(x, mode):
    if mode == "double":
        return x * 2
    return x + len(mode)


def main(backend="eager"):
    f = torch.compile(scale, backend=backend)
    f(torch.ones(2), 3)
    f(torch.ones(3), 3)  # size mismatch: recompiles with a dynamic size
    f(torch.ones(3), 4)  # n changed: recompiles with n dynamic
    gate = Gate()
    g = torch.compile(gate, backend=backend)
    g(torch.ones(2, 4))
    gate.doubled = False
    g(torch.ones(2, 4))  # a module attribute changed
    torch._dynamo.config.recompile_limit = 2
    h = torch.compile(pick, backend=backend)
    for mode in ("double", "add", "triple"):  # the third call hits the limit
        h(torch.ones(3), mode)
    _write_torch_metrics()


def _write_torch_metrics():
    path = os.environ.get("TORCH_METRICS")
    if not path:
        return
    rows = [
        {
            "compile_id": str(m.compile_id),
            "recompile_reason": m.recompile_reason,
            "guard_count": m.guard_count,
            "fail_type": m.fail_type,
        }
        for m in torch._dynamo.utils.get_compilation_metrics()
    ]
    with open(path, "w") as out:
        json.dump(rows, out)


if __name__ == "__main__":
    main(*sys.argv[1:2])
