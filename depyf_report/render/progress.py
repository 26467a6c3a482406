"""A one-line progress bar on stderr, drawn only for a person watching a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, enabled: bool, stream=None):
        self.stream = stream or sys.stderr
        self.total = max(total, 1)
        self.done = 0
        self.enabled = enabled and self.stream.isatty()
        self._drawn = 0.0

    def step(self, label: str = "") -> None:
        self.done += 1
        now = time.monotonic()
        if self.enabled and (now - self._drawn > 0.1 or self.done == self.total):
            self._drawn = now
            filled = int(30 * self.done / self.total)
            bar = "#" * filled + "-" * (30 - filled)
            self.stream.write(f"\rrendering [{bar}] {self.done}/{self.total} {label[:30]:<30}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
