"""`with` blocks and `try`/`except`/`finally` around tensor code.

`torch.no_grad()` is traced into the graph; the graph break inside the `try`
forces Dynamo to rebuild the block stack in the resume function.
"""

import sys

import torch


def guarded_update(weights, grad, log):
    try:
        with torch.no_grad():
            step = grad * 0.1
            if step.abs().max() > 10:  # data-dependent: a graph break
                raise ValueError("step too large")
            weights = weights - step
    except ValueError:
        log.append("skipped")
    finally:
        log.append("done")
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
