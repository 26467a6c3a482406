"""Decompile code objects sent over a pipe, one after another, in a process of its own.

Capture runs this beside the user's program so that decompiling never sits on the
compile path, and so that a decompiler bug (a crash, a runaway recursion) can never
take the user's process down with it.

Protocol, on stdin: frames of a 4-byte little-endian length and that many bytes of
``marshal.dumps((key, code))``; a zero length ends the session. On stdout: one JSON
line per frame, ``{"key", "decompiled", "error", "dis"}``, in the order received.
"""

from __future__ import annotations

import contextlib
import dis
import json
import marshal
import os
import struct
import sys

HEADER = struct.Struct("<I")


def frame(key: int, code) -> bytes:
    """One request; raises ValueError when the code holds constants marshal cannot write."""
    blob = marshal.dumps((key, code))
    return HEADER.pack(len(blob)) + blob


END = HEADER.pack(0)


def views(code) -> dict:
    """The decompiled source (or why there is none) and the ``dis`` listing of ``code``."""
    from . import decompile

    result: dict = {"decompiled": None, "error": None}
    try:
        result["decompiled"] = decompile(code)
    except Exception as error:
        result["error"] = f"{type(error).__name__}: {error}"
    try:
        result["dis"] = dis.Bytecode(code).dis()
    except Exception as error:
        result["dis"] = f"# dis failed: {type(error).__name__}: {error}"
    return result


def serve(requests=None, replies=None) -> None:
    if requests is None:  # the process of its own: the user's program comes first
        with contextlib.suppress(OSError, AttributeError):
            os.nice(19)
    requests = requests or sys.stdin.buffer
    if replies is None:
        # Only answers go to stdout: anything else printed goes to stderr.
        replies, sys.stdout = sys.stdout, sys.stderr
    while True:
        header = requests.read(HEADER.size)
        if len(header) < HEADER.size:
            return  # the capturing process is gone
        (size,) = HEADER.unpack(header)
        if size == 0:
            return
        key, code = marshal.loads(requests.read(size))
        replies.write(json.dumps({"key": key, **views(code)}) + "\n")
        replies.flush()


if __name__ == "__main__":
    serve()
