"""Inductor output code -> which part of the graph it runs, and its kernels."""

from __future__ import annotations

import re

from ..dump import Kernel, OutputCode

# Inductor heads every module with the AOT graph it implements: ['3_forward'].
_AOT_ID = re.compile(r"^# AOT ID: \['(?P<num>\d+)_(?P<part>\w+)'\]", re.MULTILINE)
# `name = async_compile.triton('name', '''...''')` and `cpp_pybinding([...], r'''...''')`.
_KERNEL = re.compile(
    r"^(?P<name>\w+) = async_compile\.(?P<how>\w+)\((?P<head>.*?)r?'''\n?(?P<source>.*?)'''",
    re.MULTILINE | re.DOTALL,
)
_LANGUAGES = {"triton": "triton", "cpp": "cpp", "cpp_pybinding": "cpp", "cuda": "cuda"}


def output_part(source: str) -> str | None:
    """forward, backward or inference, as the module's AOT ID comment says."""
    match = _AOT_ID.search(source)
    return match["part"] if match else None


def parse_output_code(source: str, part: str | None = None) -> OutputCode:
    kernels = [
        Kernel(
            name=match["name"],
            language=_LANGUAGES.get(match["how"], match["how"]),
            source=match["source"],
        )
        for match in _KERNEL.finditer(source)
    ]
    return OutputCode(
        part=part or output_part(source) or "inference", source=source, kernels=kernels
    )
