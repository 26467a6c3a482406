"""The substitution hook: a faithful replacement, or Dynamo's code and a reason."""

import json
import types

import pytest

from depyf_report.debug import substitute
from depyf_report.debug.relayout import Unfaithful
from depyf_report.debug.substitute import (
    CodeSubstitution,
    DebugFolder,
    check_cells_passed,
    keep_cells,
    read_debug_index,
)


def _code(source: str, name: str = "f") -> types.CodeType:
    module = compile(source, "<test>", "exec")
    stack = [module]
    while stack:
        code = stack.pop()
        if code.co_name == name:
            return code
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    raise LookupError(name)


def test_keep_cells_makes_locals_and_parameters_cells():
    source = "def f(a):\n    b = a + 1\n    return b\n"
    kept = keep_cells(source, "f", (["w"], ["a", "b"]))
    code = _code(kept)
    assert set(code.co_cellvars) == {"a", "b", "w"}
    function = types.FunctionType(code, {})
    assert function(1) == 2  # the block never runs


def test_keep_cells_passes_free_variables_through_the_enclosure():
    source = "def _enclosing_f(n):\n\n    def f(a):\n        return a\n    return f\n"
    code = _code(keep_cells(source, "f", ([], ["n"])))
    assert code.co_freevars == ("n",)


def test_keep_cells_leaves_source_alone_when_nothing_is_missing():
    source = "def f(a):\n    return a\n"
    assert keep_cells(source, "f", ([], [])) == source


def test_cells_passed_as_values_are_refused():
    target = _code("def f(a):\n    return (lambda: a)\n")
    ours = _code("def f(a):\n    return a\n")
    with pytest.raises(Unfaithful, match="passes the cells"):
        check_cells_passed(ours, target)
    check_cells_passed(target, target)


def _transformed(a, b):
    total = a + b
    return total * 2


def test_a_faithful_replacement_runs_from_its_file(tmp_path):
    folder = DebugFolder(tmp_path)
    hook = CodeSubstitution(folder, lambda: "0/0")
    replacement = hook(_transformed.__code__, _transformed.__code__)
    assert replacement is not None
    assert replacement.co_filename == str(tmp_path.resolve() / "debug" / "_transformed_0_0.py")
    assert replacement.co_varnames[:3] == ("a", "b", "total")
    assert types.FunctionType(replacement, globals())(2, 3) == 10
    [record] = json.loads((tmp_path / "debug" / "index.json").read_text())["sources"]
    assert record["substituted"] and record["line"] >= 2 and record["compile_id"] == "0/0"


def test_an_unfaithful_replacement_keeps_dynamos_code_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(
        substitute, "decompile", lambda code, **options: "def _transformed(a, c):\n    return a\n"
    )
    folder = DebugFolder(tmp_path)
    hook = CodeSubstitution(folder, lambda: "3/1")
    assert hook(_transformed.__code__, _transformed.__code__) is None
    [record] = folder.sources
    assert not record.substituted
    assert "parameters differ" in record.reason


def test_a_decompiler_error_keeps_dynamos_code(tmp_path, monkeypatch):
    def broken(code, **options):
        raise RuntimeError("boom")

    monkeypatch.setattr(substitute, "decompile", broken)
    folder = DebugFolder(tmp_path)
    assert CodeSubstitution(folder)(_transformed.__code__, _transformed.__code__) is None
    assert folder.sources[0].reason == "RuntimeError: boom"


def test_the_index_reads_back_for_the_report(tmp_path):
    folder = DebugFolder(tmp_path)
    CodeSubstitution(folder, lambda: "0/0")(_transformed.__code__, _transformed.__code__)
    [source] = read_debug_index(tmp_path)
    assert source == folder.sources[0]
    assert (source.kind, source.name, source.compile_id) == ("function", "_transformed", "0/0")
    assert read_debug_index(tmp_path / "no-such-dump") == []
