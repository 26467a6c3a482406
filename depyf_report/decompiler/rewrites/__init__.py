"""Layer 2: compiler templates read back into simpler instruction sequences: match
statements, except*, copied tails and rotated loop tests."""
