"""A Llama-style transformers model built from a tiny config, called at four shapes.

Nothing is downloaded. The second shape fails the first entry's size guard and
recompiles with a dynamic sequence length; the later shapes reuse that entry.
With $TORCH_METRICS set, torch's own compilation metrics are written there as
JSON, so a test can compare the report's counts with torch's.
"""

import json
import os
import sys

import torch
import torch._dynamo
from transformers import LlamaConfig, LlamaForCausalLM


def tiny_llama():
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=128,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=64,
        use_cache=False,
    )
    return LlamaForCausalLM(config).eval()


def main(backend="eager"):
    model = tiny_llama()
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        for length in (8, 12, 16, 20):
            tokens = torch.randint(0, 128, (1, length))
            torch.testing.assert_close(compiled(tokens).logits, model(tokens).logits)
    path = os.environ.get("TORCH_METRICS")
    if path:
        rows = [
            {"compile_id": str(m.compile_id), "recompile_reason": m.recompile_reason}
            for m in torch._dynamo.utils.get_compilation_metrics()
        ]
        with open(path, "w") as out:
            json.dump(rows, out)


if __name__ == "__main__":
    main(*sys.argv[1:2])
