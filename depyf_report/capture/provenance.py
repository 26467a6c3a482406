"""Inductor's provenance artifacts -> which nodes each kernel is made of.

With ``provenance_tracking_level`` on, Inductor logs two JSON artifacts after
each output module: ``inductor_provenance_tracking_node_mappings`` (Dynamo node
-> post-grad nodes, kernel -> post-grad nodes) and
``inductor_provenance_tracking_kernel_stack_traces`` (kernel -> the stack
traces of its nodes). Kernel names there carry a ``:<n>`` debug handle, as the
comment above each kernel call in the output code does
(``# [Provenance debug handles] cpp_fused_abs_add_0:1``); they are kept as they
are, since one extern kernel (``extern_kernels.mm``) is called at several places.
"""

from __future__ import annotations

import json


def node_mappings(payload: str | None) -> tuple[dict, dict]:
    """(Dynamo node -> post-grad nodes, kernel -> post-grad nodes); empty when unreadable."""
    data = _json_object(payload)
    return _names(data.get("preToPost")), _names(data.get("cppCodeToPost"))


def kernel_stacks(payload: str | None) -> dict[str, list[str]]:
    return _names(_json_object(payload))


def _json_object(payload: str | None) -> dict:
    try:
        data = json.loads(payload or "")
    except (json.JSONDecodeError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _names(value) -> dict[str, list[str]]:
    """A name -> list of strings map, with anything else in it dropped."""
    if not isinstance(value, dict):
        return {}
    result: dict[str, list[str]] = {}
    for key, items in value.items():
        if not isinstance(key, str) or not isinstance(items, list):
            continue
        result[key] = [item for item in items if isinstance(item, str)]
    return result
