"""Every opcode of the running Python is handled, or listed as never emitted."""

import dis
import importlib


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
