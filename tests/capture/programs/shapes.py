"""Dynamic shapes across a program: symbols made, merged and specialized.

``pair`` is compiled with dynamic=True. ``x`` and ``y`` arrive with equal
lengths, so torch gives both one symbol (duck sizing); ``w`` is twice as long,
and adding it to ``x`` repeated twice merges its symbol into ``2*`` ``x``'s.
``fixed`` is compiled with dynamic=True too, but viewing its input as 4 x 2 pins
the length to 8: a specialization. ``halves`` is static at first and recompiles
with a symbolic length when the length changes.
"""

import sys

import torch


def pair(x, y, w):
    z = x * y
    return z.repeat(2) + w


def fixed(x):
    return x.view(4, 2) * 2


def halves(a):
    return a.view(2, -1).sum(1)


def main(backend="eager"):
    f = torch.compile(pair, backend=backend, dynamic=True)
    f(torch.ones(4), torch.ones(4), torch.ones(8))
    f(torch.ones(5), torch.ones(5), torch.ones(10))
    torch.compile(fixed, backend=backend, dynamic=True)(torch.ones(8))
    g = torch.compile(halves, backend=backend)
    for length in (8, 10, 12):
        g(torch.ones(length))


if __name__ == "__main__":
    main(*sys.argv[1:2])
