"""Layer 1: code objects decoded into one canonical instruction form, whatever the
Python version. The only layer that reads ``sys.version_info``."""
