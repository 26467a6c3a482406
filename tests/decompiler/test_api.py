"""decompile() takes every kind of function and code object and returns source."""

import ast
import gc
import types
from pathlib import Path

import pytest

from depyf_report import decompile

from .code_tree import code_tree


def plain(a, b=1):
    return a + b


async def coroutine_function(x):
    return x


async def async_generator_function(n):
    for i in range(n):
        yield i


def generator_function(n):
    yield from range(n)


class Holder:
    def method(self, x):
        return x * 2

    @classmethod
    def class_method(cls):
        return cls.__name__

    @staticmethod
    def static_method(y):
        return -y


MODULE_CODE = compile("import os\nclass K:\n    def f(self):\n        return os.sep\n", "m", "exec")
TARGETS = {
    "function": plain,
    "lambda": lambda x, *, y=2: x * y,
    "generator function": generator_function,
    "coroutine function": coroutine_function,
    "async generator function": async_generator_function,
    "bound method": Holder().method,
    "class method": Holder.class_method,
    "static method": Holder.static_method,
    "code object": plain.__code__,
    "module code": MODULE_CODE,
    "this test module's code": compile(Path(__file__).read_text(), __file__, "exec"),
}


@pytest.mark.parametrize("target", list(TARGETS.values()), ids=list(TARGETS))
def test_returns_recompilable_source(target):
    source = decompile(target)
    assert isinstance(source, str)
    compiled = compile(source, "<decompiled>", "exec")
    code = target if isinstance(target, types.CodeType) else target.__code__
    if code.co_name == "<module>":
        assert [c.co_name for c in code_tree(compiled)] == [c.co_name for c in code_tree(code)]
    else:
        assert code.co_name in {c.co_name for c in code_tree(compiled)}, source


SNIPPETS = Path(__file__).parent / "snippets"
CYCLE_FREE = {
    "this test module's code": TARGETS["this test module's code"],
    # match statements: the pattern reader's slots, and the comparison of subjects
    "match statements": compile((SNIPPETS / "matching.py").read_text(), "matching", "exec"),
}


@pytest.mark.parametrize("label", list(CYCLE_FREE))
def test_leaves_no_reference_cycles(label):
    """decompile runs with gc off, so a cycle among its structures would keep a whole
    function's graph alive until some later collection: on a long function, most of
    the memory it touched."""
    code = CYCLE_FREE[label]
    decompile(code)  # first use fills caches that live on
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        decompile(code)
        gc.collect()
        ours = sorted({type(o).__name__ for o in gc.garbage if _decompilers(o)})
        assert not ours, f"decompile left cycles of: {ours}"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _decompilers(obj) -> bool:
    """Whether a collected object is the decompiler's (or the ast module's, which it
    drives), rather than a thread's that ran meanwhile: torch's tests leave tqdm's
    monitor thread running, and what it drops is collected here too."""
    if isinstance(obj, ast.AST):
        return True
    if isinstance(obj, types.FunctionType):
        return obj.__module__ == "ast" or obj.__module__.startswith("depyf_report")
    if isinstance(obj, types.FrameType):
        return obj.f_globals.get("__name__", "").startswith(("ast", "depyf_report"))
    return type(obj).__module__.startswith("depyf_report")


def _long_try(statements: int) -> str:
    body = "\n".join(f"        total += {k} * int(text[{k % 3}])" for k in range(statements))
    return (
        "def parse(text, early):\n"
        "    total = 0\n"
        "    if early:\n"
        "        return -2\n"
        f"    try:\n{body}\n"
        "    except ValueError:\n"
        "        return -1\n"
        "    return total\n"
    )


def test_a_jump_to_a_try_whose_setup_needs_a_prefix():
    """3.10 jumps to the EXTENDED_ARG before a far SETUP_FINALLY: the try is still read
    (``sre_parse._class_escape`` lost its try statement)."""
    namespace: dict = {}
    exec(compile(_long_try(60), "<long try>", "exec"), namespace)
    decompiled: dict = {}
    exec(compile(decompile(namespace["parse"]), "<decompiled>", "exec"), decompiled)
    for args in (("123", False), ("12x", False), ("1", True)):
        assert decompiled["parse"](*args) == namespace["parse"](*args)


def test_integers_too_long_for_repr():
    """repr refuses an int of more than sys.int_max_str_digits digits (4300), which a
    hexadecimal literal makes; dis cannot show such code, so no snippet holds it."""
    big = "0x" + "f" * 4000
    source = f"def numbers(x):\n    return {big}, -{big}, ({big}, x), x == {big}\n"
    namespace: dict = {}
    exec(compile(source, "<huge>", "exec"), namespace)
    original = namespace["numbers"]
    again: dict = {}
    exec(compile(decompile(original), "<decompiled>", "exec"), again)
    assert again["numbers"](int(big, 16)) == original(int(big, 16))
    assert "not decompiled" not in decompile(original)


def _outer_of_a_bad_body():
    def outer(box):
        def countdown(n):
            total = 0
            while n:
                n -= 1
                total += n
            return total

        class Holder:
            size = 2

            def __repr__(self):
                return "held " + super().__repr__()

        box.held = Holder
        return countdown(4) + box.held.size

    inner = next(c for c in outer.__code__.co_consts if getattr(c, "co_name", "") == "countdown")
    renamed = inner.replace(
        co_varnames=tuple("None" if n == "total" else n for n in inner.co_varnames)
    )
    consts = tuple(renamed if c is inner else c for c in outer.__code__.co_consts)
    return outer.__code__.replace(co_consts=consts)


def test_a_body_that_does_not_compile_leaves_the_ones_around_it_structured():
    """Where the whole output does not compile, each body is compiled on its own, its
    nested definitions emptied: a body holding a def, a class or an attribute store
    still compiles (3.12 refused a def copied with its type_params left None, and any
    Python the class cell's ``(lambda: __class__).__closure__``, an attribute made
    without a ctx), so only the bad body is a state machine."""
    source = decompile(_outer_of_a_bad_body())
    assert source.count("control flow not structured") == 1, source
    assert "box.held = Holder" in source and "return countdown(4) + box.held.size" in source
