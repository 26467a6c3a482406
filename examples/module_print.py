"""An nn.Module whose forward prints: `print` is a graph break.

Dynamo compiles the layers before the print into one graph, runs the print
in plain Python, and compiles the rest in a resume function.
"""

import sys

import torch
from torch import nn


class PrintingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encode = nn.Linear(8, 16)
        self.decode = nn.Linear(16, 4)

    def forward(self, x):
        hidden = torch.relu(self.encode(x))
        print("hidden norm computed")
        return self.decode(hidden).softmax(dim=-1)


def main(backend="eager"):
    torch.manual_seed(0)
    model = PrintingNet().eval()
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        for _ in range(2):
            x = torch.randn(3, 8)
            torch.testing.assert_close(compiled(x), model(x))
    print("module_print: compiled results match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
