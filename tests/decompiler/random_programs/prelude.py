"""The fixed head of every random program: what its statements read and log through.

A tape gives the program its choices (``t.c()`` a condition, ``t.v()`` a value,
``t.items()`` a short list) and runs out after a bounded number of reads by raising
``Spent``, so a loop that a wrong decompile left without its way out ends too. ``Box``
and ``ABox`` are context managers that may suppress an exception; ``A`` is an awaitable,
``AIter`` an async iterator, and ``drive``/``collect`` run coroutines and async
generators without an event loop. ``P`` is matched by class patterns. ``Group`` is
``ExceptionGroup`` where Python has it.
"""

PRELUDE = '''
import builtins

LOG = []


class Spent(BaseException):
    """The tape ran out: a loop went on longer than any tape allows."""


class E1(Exception):
    pass


class E2(Exception):
    pass


class OldGroup(Exception):
    def __init__(self, message, exceptions):
        super().__init__(message)
        self.exceptions = tuple(exceptions)


Group = getattr(builtins, "ExceptionGroup", OldGroup)


class Tape:
    def __init__(self, numbers):
        self.numbers = list(numbers)
        self.reads = 0

    def _next(self):
        self.reads += 1
        if self.reads > 80:
            raise Spent()
        return self.numbers[self.reads % len(self.numbers)]

    def c(self):
        return self._next() % 3 != 0

    def v(self):
        return self._next()

    def items(self):
        return list(range(self._next() % 4))


class Box:
    def __init__(self, tape, key):
        self.tape, self.key = tape, key

    def __enter__(self):
        LOG.append(("enter", self.key))
        return self.key

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.key, kind.__name__ if kind else None))
        return kind is not None and issubclass(kind, Exception) and self.tape.c()


class ABox(Box):
    async def __aenter__(self):
        await A(self.key)
        return self.__enter__()

    async def __aexit__(self, kind, value, traceback):
        await A(-self.key)
        return self.__exit__(kind, value, traceback)


class A:
    def __init__(self, value):
        self.value = value

    def __await__(self):
        yield ("await", self.value)
        return self.value


class AIter:
    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return await A(self.items.pop(0))


def drive(awaitable):
    steps = awaitable.__await__()
    for _ in range(200):
        try:
            value = steps.send(None)
        except StopIteration as stop:
            return stop.value
        LOG.append(("step", value))
    steps.close()
    raise Spent()


async def _every(generator):
    values = []
    async for value in generator:
        values.append(value)
    return values


def collect(generator):
    return drive(_every(generator))


class P:
    __match_args__ = ("a", "b")

    def __init__(self, a, b=0):
        self.a, self.b = a, b
'''
