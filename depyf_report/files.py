"""Files read from a dump or written into one or a site: whole, and never through a link.

A dump and a site folder may hold links, FIFOs or devices put there by someone
else. Reading opens only regular files, without following a link or waiting on a
FIFO; writing goes to a new file renamed over the old one, so a reader sees the old
file or the new, and a link there is replaced rather than written through.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

# O_NOFOLLOW guards a path's last part only: callers check the folders above it.
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class NotRegularFile(OSError):
    """A FIFO, device, socket or folder where a file was expected."""


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file; OSError for anything else, a link included."""
    fd = os.open(path, os.O_RDONLY | NO_FOLLOW)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise NotRegularFile(f"{shown_path(path)}: not a regular file")
        return file.read()


def is_folder(path: Path) -> bool:
    """A real folder: a link to one is not."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def is_regular(path: Path) -> bool:
    """A regular file: a link to one is not."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[BinaryIO]:
    """A new file to write ``path`` into, renamed over it at the end.

    A process killed mid-write leaves at most a stray ``.*.tmp`` file beside it.
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def shown_path(path) -> str:
    """A path as text that can be written anywhere: bytes that are not UTF-8 as escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")
