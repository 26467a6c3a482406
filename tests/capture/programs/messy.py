"""A function whose breaks lead to several resume functions of the same name.

The data-dependent branch breaks on one line and resumes on two (one resume
function per branch), and each call of ``messy`` with another ``k`` recompiles it.
"""

import logging
import sys

import torch

log = logging.getLogger("messy")


def messy(x, k):
    y = x * k
    if y.sum() > 0:
        y = y + 1
    else:
        y = y - 1
    print("after branch")
    return y.cos()


def main(backend="eager"):
    f = torch.compile(messy, backend=backend)
    f(torch.ones(3), 2)
    f(-torch.ones(3), 2)
    f(torch.ones(3), 3)


if __name__ == "__main__":
    main(*sys.argv[1:2])
