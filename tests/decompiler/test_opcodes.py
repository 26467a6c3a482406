"""Every opcode of the running Python is handled, or listed as never emitted."""

import ast
import contextlib
import dataclasses
import dis
import importlib
import inspect
from pathlib import Path

import pytest


def _opcodes():
    # Imported in the tests, so a missing module fails these two, not the collection.
    return importlib.import_module("depyf_report.decompiler.simulation.coverage")


def test_every_opcode_is_handled_or_listed_with_a_reason():
    opcodes = _opcodes()
    handled = set(opcodes.handled_opcodes())
    unaccounted = sorted(set(dis.opmap) - handled - set(opcodes.NOT_EMITTED))
    assert not unaccounted, f"neither handled nor listed as never emitted: {unaccounted}"


def test_never_emitted_opcodes_say_why_and_are_not_also_handled():
    opcodes = _opcodes()
    for opname, reason in opcodes.NOT_EMITTED.items():
        assert isinstance(reason, str) and reason.strip(), f"{opname} has no reason"
    assert not set(opcodes.NOT_EMITTED) & set(opcodes.handled_opcodes())


# -- the one opcode table (bytecode/opcodes.py) --------------------------------------


def _table():
    return importlib.import_module("depyf_report.decompiler.bytecode.opcodes")


def _handlers():
    importlib.import_module("depyf_report.decompiler.simulation")  # registers them all
    return importlib.import_module("depyf_report.decompiler.simulation.registry").HANDLERS


def test_every_handled_opcode_is_in_the_table():
    missing = sorted(set(_handlers()) - _table().OPCODES)
    assert not missing, f"handlers registered for opcodes the table lacks: {missing}"


def _intrinsics_of_this_python() -> set[str]:
    table = _table()
    names = set()
    for arity in (1, 2):
        for function in getattr(dis, f"_intrinsic_{arity}_descs", ()):
            if function.endswith("_INVALID") or function in table.DROPPED_INTRINSICS:
                continue
            names.add(table.INTRINSICS.get(function) or table.intrinsic(arity, function))
    return names


def test_every_pseudo_opcode_is_handled():
    table, handlers = _table(), _handlers()
    for op, reason in table.PSEUDO.items():
        assert reason.strip(), f"{op} says nowhere why it is made"
        assert op in handlers, f"pseudo-opcode {op} is made but nothing handles it"
    # Each intrinsic of this Python (3.12+) is handled; those of a later one need not be.
    unhandled = sorted(n for n in _intrinsics_of_this_python() if n not in handlers)
    assert not unhandled, f"intrinsics of this Python with no handler: {unhandled}"
    assert _intrinsics_of_this_python() <= table.OPCODES


def test_the_tables_of_the_bytecode_layer_name_only_canonical_opcodes():
    table = _table()
    py310 = importlib.import_module("depyf_report.decompiler.bytecode.py310")
    named = set(table.RENAMED.values()) | set(table.INTRINSICS.values())
    named |= set(py310.RENAMED.values()) | table.JUMPS | table.NO_FALLTHROUGH | table.GAP_OPS
    assert not named - table.OPCODES, sorted(named - table.OPCODES)


def test_every_raw_opcode_is_renamed_expanded_or_kept_as_a_canonical_one():
    table, coverage = _table(), _opcodes()
    versions = importlib.import_module("depyf_report.decompiler.bytecode.versions")
    if versions.BLOCK_STACK:
        pytest.skip("3.10's opcodes go through py310.py: the corpus test covers them")
    left = set(dis.opmap) - set(coverage.NOT_EMITTED) - table.DROPPED - table.COLLAPSED
    kept = {table.RENAMED.get(name, name) for name in left}
    unknown = sorted(op for op in kept - table.OPCODES if op not in versions.EXPANDERS)
    assert not unknown, f"raw opcodes kept as they are but not in the table: {unknown}"


def _code_objects(code):
    yield code
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            yield from _code_objects(const)


def test_the_normalizer_emits_only_opcodes_in_the_table():
    from depyf_report.decompiler.bytecode.instructions import normalize
    from depyf_report.decompiler.rewrites.patterns import collapse
    from depyf_report.decompiler.rewrites.star import regular_form

    from .corpus import snippets

    table = _table()
    sources = [(s.source, str(s.path)) for s in snippets()]
    for module in (ast, contextlib, dataclasses, inspect):  # a varied sample of real code
        sources.append((Path(module.__file__).read_text(encoding="utf-8"), module.__file__))
    emitted = set()
    for source, path in sources:
        for code in _code_objects(compile(source, path, "exec")):
            instrs = collapse(normalize(code))
            emitted |= {i.op for i in instrs} | {i.op for i in regular_form(instrs)}
    assert not emitted - table.OPCODES, sorted(emitted - table.OPCODES)
