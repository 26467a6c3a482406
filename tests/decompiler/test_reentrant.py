"""``decompile`` may run in several threads at once: each call keeps its own state.

The functions below go through every piece of state a call once kept in its module:
the names of object constants (Dynamo puts dicts and functions in co_consts), the
retry that checks each structured body on its own when the whole output does not
compile, and the recursion limit and garbage collector a call adjusts while it runs.
"""

import ast
import gc
import sys
import threading

import pytest

from depyf_report import decompile
from depyf_report.decompiler.tidy import cleanup

THREADS = 8
ROUNDS = 12


def branches(a, b):
    if a > b:
        return a - b
    elif a == b:
        return 0
    total = 0
    for i in range(a, b):
        if i % 3:
            continue
        total += i
    return total


def handlers(path):
    try:
        with open(path) as f:
            return f.read()
    except (OSError, ValueError) as e:
        return str(e)
    finally:
        print("done")


def closures(xs):
    scale = 2

    def inner(x):
        return x * scale

    return [inner(x) for x in xs if x], {k: v for k, v in zip(xs, xs)}


def matching(command):
    match command:
        case ["go", direction]:
            return direction
        case {"x": x, **rest}:
            return x, rest
        case _:
            return None


def generator(n):
    yield from range(n)
    while n:
        n -= 1
        yield n


async def coroutine(source):
    async with source as s:
        async for item in s:
            await item


def _with_constants(fn, **objects):
    """``fn`` with the string constants named in ``objects`` replaced by those objects,
    as Dynamo leaves them in co_consts: each becomes a parameter of an enclosure."""
    consts = tuple(objects.get(c, c) if isinstance(c, str) else c for c in fn.__code__.co_consts)
    return fn.__code__.replace(co_consts=consts)


def _objects_one():
    table = "TABLE"
    return table.get("key")


def _objects_two(x):
    first = "FIRST"
    second = "SECOND"
    if x:
        return first(x), second
    return second(first)


def _countdown(n):
    total = 0
    while n:
        n -= 1
        if n == 3:
            break
        total += n
    return total


def _probed(code=_countdown.__code__):
    """``code`` with its local ``total`` named ``None``. The compiler takes such a tree
    from the structured builder without complaint, but not from its text: the call
    decompiles again, compiling each body on its own, and the one with the name goes to
    the state machine. Its output depends on that retry."""
    return code.replace(co_varnames=tuple("None" if n == "total" else n for n in code.co_varnames))


def _probed_nested():
    def outer(n):
        def countdown(n):
            total = 0
            while n:
                n -= 1
                if n == 3:
                    break
                total += n
            return total

        return countdown(n) + 1

    inner = next(c for c in outer.__code__.co_consts if hasattr(c, "co_code"))
    consts = tuple(_probed(c) if c is inner else c for c in outer.__code__.co_consts)
    return outer.__code__.replace(co_consts=consts)


TARGETS = [
    branches,
    handlers,
    closures,
    matching,
    generator,
    coroutine,
    _with_constants(_objects_one, TABLE={"key": 1}),
    _with_constants(_objects_two, FIRST=len, SECOND={1: 2}),
    _with_constants(_objects_two, FIRST=[1], SECOND=print),
    _probed(),
    _probed_nested(),
]


def test_the_targets_cover_object_constants_and_the_retry():
    sources = [decompile(t) for t in TARGETS]
    assert "_const_0" in sources[6] and "_const_1" in sources[7] and "_const_1" in sources[8]
    # the retry hands the body with the bad name, and only that one, to the state machine
    assert sources[9].count("_state = ") > 1
    assert sources[10].count("_state = ") > 1 and "while n:" not in sources[10]
    assert "return countdown(n) + 1" in sources[10]


@pytest.fixture
def fast_switching():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def test_decompile_from_many_threads_gives_the_single_threaded_results(fast_switching):
    expected = [decompile(t) for t in TARGETS]
    limit, collecting = sys.getrecursionlimit(), gc.isenabled()
    start = threading.Barrier(THREADS)
    wrong: list = []

    def work(offset):
        start.wait()
        for r in range(ROUNDS):
            for k in range(len(TARGETS)):
                i = (k + offset + r) % len(TARGETS)
                got = decompile(TARGETS[i])
                if got != expected[i]:
                    wrong.append((i, got))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong, f"{len(wrong)} results differ, first for target {wrong[0][0]}:\n{wrong[0][1]}"
    assert sys.getrecursionlimit() == limit
    assert gc.isenabled() == collecting


def test_the_state_of_the_body_being_tidied_is_each_threads_own():
    """The tidy passes keep the body being tidied (its name reads, its scope) in
    module-level objects: another thread's body must never show through. (Shared,
    a thread tidying ``closures`` counted the reads of another's body and wrote its
    list comprehension as a statement, leaving its temporary unbound.)"""
    mine = [ast.parse("x = y").body[0]]
    cleanup.READS.start(mine)
    cleanup.SCOPE.function = True
    other = threading.Thread(
        target=lambda: (cleanup.READS.start([]), setattr(cleanup.SCOPE, "function", False))
    )
    other.start()
    other.join()
    assert cleanup.READS.body is mine and cleanup.READS("y") == 1
    assert cleanup.SCOPE.function is True
    cleanup.READS.start([])
