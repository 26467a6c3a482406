"""The classic example from depyf's README: one data-dependent branch.

`b.sum() < 0` depends on tensor data, so Dynamo breaks the graph there and
continues in a resume function; calling it with other signs exercises both.
"""

import sys

import torch


def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


def main(backend="eager"):
    compiled = torch.compile(toy_example, backend=backend)
    torch.manual_seed(0)
    for _ in range(3):
        a, b = torch.randn(10), torch.randn(10)
        torch.testing.assert_close(compiled(a, b), toy_example(a, b))
    print("toy_example: compiled results match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
