"""One function, many kinds of graph break, one of them inside a called helper."""

import sys

import torch


def helper(y):
    print("inside helper")
    return y + 1


def many_breaks(x):
    y = x.sin()
    print("step")
    z = y.cos()
    if z.sum() > 0:
        z = z * 2
    n = z.sum().item()
    w = z + n
    w = helper(w)
    return w * 3


def main(backend="eager"):
    f = torch.compile(many_breaks, backend=backend)
    f(torch.ones(4))


if __name__ == "__main__":
    main(*sys.argv[1:2])
