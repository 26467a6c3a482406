"""`with` blocks and `try`/`finally` around tensor code.

`torch.no_grad()` is traced into the graph, the `finally` side effect on the
log list is replayed after it, and the data-dependent `if` after the `try`
is a graph break that continues in a resume function. (A graph break *inside*
the `try` makes Dynamo give up on the whole frame, so the break comes after.)
"""

import sys

import torch


def guarded_update(weights, grad, log):
    with torch.no_grad():
        step = grad * 0.1
    try:
        too_large = step.abs().max() > 10
        weights = weights - step
    finally:
        log.append("done")
    if too_large:  # data-dependent: a graph break
        log.append("step too large")
    return weights


def main(backend="eager"):
    compiled = torch.compile(guarded_update, backend=backend)
    torch.manual_seed(0)
    for scale in (1.0, 1000.0):
        w, g = torch.randn(5), torch.randn(5) * scale
        plain_log, compiled_log = [], []
        expected = guarded_update(w, g, plain_log)
        torch.testing.assert_close(compiled(w, g, compiled_log), expected)
        assert compiled_log == plain_log, (compiled_log, plain_log)
    print("with_try: compiled results and logs match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
