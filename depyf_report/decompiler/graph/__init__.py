"""Layer 3: basic blocks, the control-flow graph, dominators and loops."""
