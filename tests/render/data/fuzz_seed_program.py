"""The program whose capture is tests/render/data/fuzz_seed: a graph break, a
recompile and AOT graph stages, in a dump of under 100 KB.

Regenerate from the repository root (needs torch):

    python -m depyf_report run -o tests/render/data/fuzz_seed -- \
        python tests/render/data/fuzz_seed_program.py
"""

import torch


def step(x, scale):
    y = torch.relu(x) * scale
    print("graph break")  # Dynamo breaks the graph here
    return y.sum() + x.mean()


def main():
    compiled = torch.compile(step, backend="aot_eager", dynamic=False)
    compiled(torch.randn(4), 2.0)
    compiled(torch.randn(4, 3), 2.0)  # another shape: a recompile


if __name__ == "__main__":
    main()
