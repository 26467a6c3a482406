"""Comprehensions over `*args` and `**kwargs`.

Dynamo inlines list, dict and generator comprehensions; on Python 3.12+ they
are inlined in the bytecode too, which the decompiler must read back.
"""

import sys

import torch


def combine(*tensors, **weights):
    scaled = [t * weights.get(f"w{i}", 1.0) for i, t in enumerate(tensors)]
    norms = {name: value for name, value in weights.items() if value > 0.5}
    total = sum(t.sum() for t in scaled)
    return torch.stack(scaled).mean(0) + total * len(norms)


def main(backend="eager"):
    compiled = torch.compile(combine, backend=backend)
    torch.manual_seed(0)
    tensors = [torch.randn(3) for _ in range(3)]
    for weights in ({"w0": 2.0, "w2": 0.25}, {"w1": 0.75}):
        torch.testing.assert_close(compiled(*tensors, **weights), combine(*tensors, **weights))
    print("comprehensions: compiled results match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
