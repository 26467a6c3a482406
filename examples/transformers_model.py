"""A real model from `transformers`: a tiny GPT-2 built from a config, random weights.

Nothing is downloaded. A forward hook that logs with `print` puts a graph break
inside the model, so Dynamo compiles the blocks around it separately.
"""

import sys

import torch
from transformers import GPT2Config, GPT2LMHeadModel


def tiny_gpt2():
    torch.manual_seed(0)
    config = GPT2Config(
        vocab_size=128, n_positions=32, n_embd=32, n_layer=2, n_head=2, use_cache=False
    )
    model = GPT2LMHeadModel(config).eval()
    model.transformer.h[0].register_forward_hook(_log_block)
    return model


def _log_block(module, inputs, output):
    print("block 0 done")  # print is a graph break


def main(backend="eager"):
    model = tiny_gpt2()
    compiled = torch.compile(model, backend=backend)
    tokens = torch.randint(0, 128, (2, 10))
    with torch.no_grad():
        expected = model(tokens).logits
        actual = compiled(tokens).logits
    torch.testing.assert_close(actual, expected)
    print("transformers_model: compiled logits match eager")


if __name__ == "__main__":
    main(*sys.argv[1:2])
