"""Capture spares torch the structured-trace records it never reads, and only those."""

from __future__ import annotations

import contextlib
import logging

import pytest

import depyf_report

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

from torch._logging import _internal  # noqa: E402


def _emit(kind: str, built: list, artifact: str | None = None) -> None:
    """One record of ``kind`` (an artifact named ``artifact``), noting its payload built."""
    metadata = (lambda: {"name": artifact, "encoding": "string"}) if artifact else dict
    torch._logging.trace_structured(
        "artifact" if artifact else kind,
        metadata,
        payload_fn=lambda: built.append(artifact or kind) or "payload",
    )


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.kinds: list[str] = []

    def emit(self, record) -> None:
        metadata = getattr(record, "metadata", {})
        self.kinds.extend(metadata.get("artifact", {}).get("name", k) for k in metadata)


@contextlib.contextmanager
def no_other_listener():
    """The trace logger as a plain program has it: pytest hangs handlers there."""
    handlers = _internal.trace_log.handlers[:]
    _internal.trace_log.handlers[:] = []
    try:
        yield
    finally:
        _internal.trace_log.handlers[:] = handlers


def test_records_capture_does_not_read_are_never_built(tmp_path):
    built: list[str] = []
    with no_other_listener(), depyf_report.capture(tmp_path / "d"):
        _emit("chromium_event", built)
        _emit("describe_tensor", built)
        _emit("artifact", built, artifact="some_unread_artifact")
        _emit("dynamo_output_graph", built)
        _emit("artifact", built, artifact="aot_forward_graph")
    assert built == ["dynamo_output_graph", "aot_forward_graph"]


def test_a_users_own_trace_still_gets_every_record(tmp_path):
    built: list[str] = []
    users = Collect()
    with no_other_listener():
        _internal.trace_log.addHandler(users)
        with depyf_report.capture(tmp_path / "d"):
            _emit("chromium_event", built)
            _emit("artifact", built, artifact="some_unread_artifact")
    assert built == ["chromium_event", "some_unread_artifact"]
    assert "chromium_event" in users.kinds and "some_unread_artifact" in users.kinds


def test_torch_modules_get_their_own_trace_structured_back(tmp_path):
    from torch._subclasses import meta_utils  # imports trace_structured by name

    original = _internal.trace_structured
    assert meta_utils.trace_structured is original
    with depyf_report.capture(tmp_path / "d"):
        assert meta_utils.trace_structured is not original
        assert torch._logging.trace_structured is not original
    assert meta_utils.trace_structured is original
    assert torch._logging.trace_structured is original


def test_a_compile_under_capture_computes_the_same(tmp_path):
    def f(x):
        return torch.sin(x) * 2 + x.sum()

    x = torch.arange(6.0)
    expected = f(x)
    torch._dynamo.reset()
    with depyf_report.capture(tmp_path / "d"):
        got = torch.compile(f, backend="aot_eager")(x)
    torch._dynamo.reset()
    assert torch.equal(got, expected)
