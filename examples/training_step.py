"""A training step: forward, loss and backward compiled, optimizer step in eager.

AOTAutograd splits the joint graph into a forward and a backward graph; with
Inductor each gets its own output code.
"""

import sys

import torch
from torch import nn


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 1))


def loss_and_grads(model, x, y):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss


def train(model, step, batches):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for x, y in batches:
        optimizer.zero_grad()
        losses.append(step(model, x, y).detach())
        optimizer.step()
    return losses


def main(backend="eager"):
    torch.manual_seed(1)
    batches = [(torch.randn(5, 6), torch.randn(5, 1)) for _ in range(3)]
    plain = train(make_model(), loss_and_grads, batches)
    compiled_step = torch.compile(loss_and_grads, backend=backend)
    compiled = train(make_model(), compiled_step, batches)
    torch.testing.assert_close(compiled, plain)
    print("training_step: compiled losses match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
