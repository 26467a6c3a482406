"""A Llama-style transformers model from a tiny config with N layers, random weights.

    python llama_layers.py LAYERS BACKEND

Nothing is downloaded. Three calls: sequence length 8, then 12 (the size guard
fails: a recompile with a dynamic length), then batch 2 (another guard fails).
"""

import sys

import torch
from transformers import LlamaConfig, LlamaForCausalLM


def tiny_llama(layers: int):
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=128,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=layers,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=64,
        use_cache=False,
    )
    return LlamaForCausalLM(config).eval()


def main(layers: str = "2", backend: str = "eager"):
    model = tiny_llama(int(layers))
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        for batch, length in ((1, 8), (1, 12), (2, 12)):
            tokens = torch.randint(0, 128, (batch, length))
            torch.testing.assert_close(compiled(tokens).logits, model(tokens).logits)


if __name__ == "__main__":
    main(*sys.argv[1:3])
