"""Closures with `nonlocal`: Dynamo traces the cell writes and replays them.

The counter cell changes on every call, so Dynamo must write it back after
the graph runs; the graph break inside makes a resume function that still
sees the cells.
"""

import sys

import torch


def make_accumulator():
    total = torch.zeros(4)
    calls = 0

    def accumulate(x):
        nonlocal total, calls
        calls += 1
        total = total + x * calls
        if total.sum() > 0:  # data-dependent: a graph break
            total = total - 1
        return total.clone()

    return accumulate, lambda: (total, calls)


def main(backend="eager"):
    plain, plain_state = make_accumulator()
    accumulate, state = make_accumulator()
    compiled = torch.compile(accumulate, backend=backend)
    torch.manual_seed(0)
    for _ in range(3):
        x = torch.randn(4)
        torch.testing.assert_close(compiled(x), plain(x))
    torch.testing.assert_close(state()[0], plain_state()[0])
    assert state()[1] == plain_state()[1] == 3
    print("closures: compiled results and cells match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
