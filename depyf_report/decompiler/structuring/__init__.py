"""Layer 5: statements recovered from the control-flow graph; the state machine
when they cannot be."""
