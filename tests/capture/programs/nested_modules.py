"""A model whose ops live in its child modules' forward methods, trained one step.

Most nodes of its graphs come from ``Block.forward`` and ``Mlp.forward``, not
from the compiled ``Model.forward``: provenance must show those functions too.
"""

import sys

import torch
from torch import nn


class Mlp(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.up = nn.Linear(width, 2 * width)
        self.down = nn.Linear(2 * width, width)

    def forward(self, x):
        h = torch.relu(self.up(x))
        return self.down(h)


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.mlp = Mlp(width)

    def forward(self, x):
        y = x * torch.sigmoid(x)
        return x + self.mlp(y)


class Model(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.block = Block(width)

    def forward(self, x):
        z = self.block(x)
        return z.sum()


def main(backend="eager"):
    torch.manual_seed(0)
    model = Model()
    compiled = torch.compile(model, backend=backend)
    x = torch.randn(4, 8)
    loss = compiled(x)
    loss.backward()
    print("nested_modules:", float(loss))


if __name__ == "__main__":
    main(*sys.argv[1:2])
