"""Dynamic shapes: a second input length makes Dynamo recompile with a symbolic size.

The first call specializes on length 8; the second (length 12) fails the size
guard, so Dynamo recompiles once with `s0` standing for the length, and the
third (length 20) reuses that graph.
"""

import sys

import torch


def normalize(x, scale):
    centered = x - x.mean()
    return centered / (centered.std() + 1e-5) * scale


def main(backend="eager"):
    compiled = torch.compile(normalize, backend=backend)
    torch.manual_seed(0)
    for length in (8, 12, 20):
        x = torch.randn(length)
        torch.testing.assert_close(compiled(x, 2.0), normalize(x, 2.0))
    print("dynamic_shapes: compiled results match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
