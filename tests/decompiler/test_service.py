"""The decompiler process capture talks to: its framing and its answers."""

from __future__ import annotations

import io
import json

import pytest

from depyf_report.decompiler import service


def _answers(*codes) -> list[dict]:
    requests = b"".join(service.frame(key, code) for key, code in enumerate(codes))
    replies = io.StringIO()
    service.serve(io.BytesIO(requests + service.END), replies)
    return [json.loads(line) for line in replies.getvalue().splitlines()]


def test_each_request_gets_source_and_listing_in_order():
    def first(x):
        return x + 1

    def second(items):
        return [i for i in items if i]

    answers = _answers(first.__code__, second.__code__)
    assert [a["key"] for a in answers] == [0, 1]
    for answer, name in zip(answers, ["first", "second"]):
        assert answer["error"] is None
        assert f"def {name}(" in answer["decompiled"]
        compile(answer["decompiled"], name, "exec")
        assert "RETURN" in answer["dis"]


def test_the_session_ends_at_end_of_input_without_the_end_frame():
    replies = io.StringIO()
    service.serve(io.BytesIO(service.frame(7, compile("x = 1", "m", "exec"))), replies)
    assert json.loads(replies.getvalue())["key"] == 7


def test_a_constant_marshal_cannot_write_is_refused_before_sending():
    code = compile("x = 1", "m", "exec").replace(co_consts=(object(), None))
    with pytest.raises(ValueError):
        service.frame(0, code)
