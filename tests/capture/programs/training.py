"""A training step with logging and a data-dependent branch on the loss."""

import logging
import sys

import torch

log = logging.getLogger("train")


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 4, 3)
        self.head = torch.nn.Linear(4 * 6 * 6, 2)

    def forward(self, x):
        return self.head(self.conv(x).relu().flatten(1))


def train_step(model, opt, x, y):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    log.info("loss computed")
    if loss > 100:
        loss = loss / 10
    loss.backward()
    opt.step()
    return loss


def main(backend="aot_eager"):
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    step = torch.compile(train_step, backend=backend)
    for _ in range(2):
        step(model, opt, torch.randn(2, 1, 8, 8), torch.tensor([0, 1]))


if __name__ == "__main__":
    main(*sys.argv[1:2])
