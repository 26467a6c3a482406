"""Decompiled code recompiles to the same bytecode: shapes the stdlib round trip
(``benchmarks/decompile_roundtrip.py``) once found inexact, each as a small module.

Each module is decompiled, the result recompiled, and every code object compared
with the original by its instruction stream, the round trip's own yardstick
(``benchmarks/decompile_compare.py``: line numbers and layout-only instructions
left out). What each shape means is checked by a behaviour snippet besides.
"""

import importlib.util
from pathlib import Path

import pytest

from depyf_report import decompile

_COMPARE = Path(__file__).parents[2] / "benchmarks" / "decompile_compare.py"
_spec = importlib.util.spec_from_file_location("decompile_compare", _COMPARE)
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)

SHAPES = {
    # The body is laid out first: the else that raises stays the else, not a guard
    # written before the body (structuring/branches.py, _body_not_join).
    "body_first_else_raises": """
def set_mode(box, mode):
    if mode == 'new' or mode == 'cur':
        box.mode = mode
    else:
        raise ValueError(mode)
""",
    # ``if c: pass`` compiles to a jump past the else, ``if not c:`` does not
    # (nodes.Pass.written, tidy/cleanup.py).
    "written_pass": """
def seek(box, offset, whence):
    if whence == 0:
        pass
    elif whence == 1:
        offset = box.pos + offset
    else:
        raise ValueError(whence)
    return offset
""",
    # 3.12+ copy the re-raise ending a finally body into each branch of its last if
    # statement, and the return after it on the normal path (structuring/clauses.py,
    # if_tail_hoisted): still one finally body, not a bare except and a copy.
    "finally_ending_in_an_if": """
def close(box):
    try:
        f = box.file
        box.file = None
        if f is not None:
            f.close()
    finally:
        sock = box.sock
        box.sock = None
        if sock is not None:
            sock.close()
""",
    "finally_ending_in_an_if_after_clauses": """
def leave(box):
    if box.sock is not None:
        try:
            box.quit()
        except (OSError, EOFError):
            pass
        finally:
            if box.sock is not None:
                box.close()
""",
    # ... and the return before it in the body, after the copy of the finally body
    # (structuring/clauses.py, strip_copies).
    "return_under_a_finally_ending_in_an_if": """
def first_match(tests, data, closing):
    try:
        for test in tests:
            found = test(data)
            if found:
                return found
    finally:
        if closing:
            LOG.append('closed')
""",
    # Targets other than names of ``a, b = x, y``: the values, a swap, then each
    # target in turn (simulation/handlers/statements.py, _target_stores), not two
    # temporaries.
    "swapped_targets": """
def reverse(seq, n):
    for i in range(n // 2):
        seq[i], seq[n - i - 1] = seq[n - i - 1], seq[i]
    seq.a, b, seq[f()] = b, seq.a, f(seq)
    result, seq[:] = seq[:], []
""",
    # A chained assignment whose first target unpacks (simulation/handlers/
    # statements.py, _target_end and _fill_unpack).
    "unpacked_and_kept": """
def find(self, q):
    i, j, k = x = self.find(q)
    return i, j, x
""",
    # ``assert False, msg`` compiles to its raise alone, and an assert ending a loop
    # body (3.12+) to a jump to the next round and the raise (tidy/cleanup.py,
    # _failed_assertion and _asserted_at_end).
    "assert_false": """
def unhex(c):
    if c == 1:
        i = 2
    elif c == 2:
        i = 3
    else:
        assert False, 'non-hex digit ' + repr(c)
    return i
""",
    "assert_ending_a_loop_body": """
def check(obtype, doc):
    if isinstance(obtype, tuple):
        for contained in obtype:
            assert isinstance(contained, type)
    assert isinstance(doc, str)
""",
    # 3.12 compile a comprehension's if clause on a line below its for to a jump of
    # the other sense: the clause stays below it (nodes.comprehension, tidy/unparse.py).
    "comprehension_if_below_its_for": """
def abstracts(namespace):
    return {name
            for name, value in namespace.items()
            if getattr(value, "__isabstractmethod__", False)}
""",
    "generator_if_below_its_for": """
def difference(self, other):
    return self._from_iterable(value for value in self
                               if value not in other)
""",
    "comprehension_ifs_below_each_other": """
def pick(rows):
    return [row for row in rows
            if row
            for cell in row
            if cell]
""",
}


def mismatches(source: str) -> list[str]:
    original = compile(source, "<shape>", "exec")
    rebuilt = compile(decompile(original), "<shape>", "exec")
    return compare.compare_trees(original, rebuilt).mismatches


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shape_recompiles_to_the_same_bytecode(name):
    assert mismatches(SHAPES[name]) == [], decompile(compile(SHAPES[name], "<shape>", "exec"))


def test_an_if_clause_below_its_for_is_written_below_it():
    source = SHAPES["generator_if_below_its_for"]
    text = decompile(compile(source, "<shape>", "exec"))
    assert "for value in self\n" in text and "if value not in other)" in text


def test_an_if_clause_inside_an_fstring_stays_on_its_line():
    # an f-string's parts take no line break before 3.12
    source = "def f(xs):\n    return f'{[x for x in xs if x]!r}'\n"
    text = decompile(compile(source, "<shape>", "exec"))
    compile(text, "<decompiled>", "exec")
    assert "\n" not in text.strip().splitlines()[-1]
