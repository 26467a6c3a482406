"""Layer 6: readability passes over recovered statements, and printing them."""
