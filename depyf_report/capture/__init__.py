"""torch.compile -> dump. The only part of depyf-report that imports torch."""
