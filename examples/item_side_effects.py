"""`.item()` turns a tensor into a Python number, with side effects on a list.

By default Dynamo breaks the graph at `.item()`; the appends to `history`
must still happen exactly as in eager.
"""

import sys

import torch


def track(x, history):
    peak = x.max().item()
    history.append(peak)
    if peak > 1.0:
        x = x / peak
    history.append(len(history))
    return x * 2


def main(backend="eager"):
    compiled = torch.compile(track, backend=backend)
    torch.manual_seed(0)
    plain_history, compiled_history = [], []
    for scale in (0.5, 3.0):
        x = torch.rand(6) * scale
        torch.testing.assert_close(compiled(x, compiled_history), track(x, plain_history))
    assert compiled_history == plain_history, (compiled_history, plain_history)
    print("item_side_effects: compiled results and history match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
