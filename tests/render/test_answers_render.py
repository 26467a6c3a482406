"""Render's side of the answers: torch's links checked, reasons split, guards found."""

from __future__ import annotations

import pytest

from depyf_report.dump import GuardFailure
from depyf_report.render import urls
from depyf_report.render.context import break_summary
from depyf_report.render.recompiles import failed_guard_line


@pytest.mark.parametrize(
    "url",
    [
        "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html",
        "https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/x.html",
        "https://pytorch.org/docs/stable/torch.compiler.html#faq",
        "https://github.com/pytorch/pytorch/issues/1",
    ],
)
def test_torch_pages_are_linked(url):
    assert urls.torch_doc(url) == url


@pytest.mark.parametrize(
    "url",
    [
        "http://pytorch.org/docs",
        "https://pytorch.org.evil.example/",
        "https://evil.example/pytorch.org/",
        "https://evilpytorch.org/",
        "https://github.com/pytorchx/a",
        "https://meta-pytorch.github.io/other-site/",
        'https://pytorch.org/"onmouseover="x',
        "https://pytorch.org/a b",
        "https://pytorch.org/?q=<script>",
        "javascript:alert(1)//pytorch.org/",
        None,
        "",
    ],
)
def test_other_links_are_text(url):
    assert urls.torch_doc(url) is None


def test_break_summary_is_the_inner_cause_not_torch_wrapper():
    reason = (
        "Graph Break Reason: Encountered graph break when attempting to trace CALL: a "
        "function call, e.g. f(x, y):\n\nFailed to trace builtin operator\n  Explanation: x"
    )
    assert break_summary(reason) == "Failed to trace builtin operator"
    assert break_summary(reason, "Typed") == "Typed"


TREE = """TREE_GUARD_MANAGER:
+- RootGuardManager
| +- GuardManager: source=L['n'], accessed_by=FrameLocalsGuardAccessor(key='n'), type=<class 'int'>
| | +- EQUALS_MATCH: L['n'] == 3                  # return x * n  # a.py:3 in f
| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x'), type=<class 'torch.Tensor'>
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, size=[2], stride=[1])  # return x * n  # a.py:3 in f
| +- GuardManager: source=L['cfg'], accessed_by=FrameLocalsGuardAccessor(key='cfg'), type=<class 'C'>
| | +- ID_MATCH: ___check_obj_id(L['cfg'], 1234)  # a.py:4 in f
"""


@pytest.mark.parametrize(
    ("failure", "line"),
    [
        (GuardFailure("", "0/0", "tensor 'x' size mismatch at index 0", "size", "L['x']"), 6),
        (GuardFailure("", "0/0", "n == 3", "value", "n"), 4),
        (GuardFailure("", "0/0", "cfg is not the same object", "other", "cfg"), 8),
        (GuardFailure("", "0/0", "y == 1", "value", "y"), None),
    ],
)
def test_the_failed_guard_line(failure, line):
    assert failed_guard_line(TREE, failure) == line
