"""yield, yield as an expression with send, yield from with a return value."""

LOG = []


def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1
    return "counted"


def echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            break
        received.append(value)
    return received


def use_echo(values):
    generator = echo()
    replies = [next(generator)]
    for value in values:
        replies.append(generator.send(value))
    try:
        generator.send(None)
    except StopIteration as stop:
        return replies, stop.value
    return replies, "no stop"


def delegate(n):
    result = yield from count_up(n)
    yield result
    yield from ["x", "y"]


def generator_with_finally(n):
    try:
        for i in range(n):
            if i == 2:
                return "early"
            yield i
    finally:
        LOG.append("generator closed")


def close_early():
    generator = generator_with_finally(10)
    first = next(generator)
    generator.close()
    return first, list(LOG)


def generator_raises(x):
    yield 1
    if x:
        raise ValueError("from generator")
    yield 2


def throw_into():
    def inner():
        try:
            yield 1
        except KeyError as error:
            yield f"caught {error}"
        yield "after"

    generator = inner()
    return [next(generator), generator.throw(KeyError("k")), next(generator)]


def bare_yield():
    x = yield
    yield x


def generator_expression(items):
    squares = (item * item for item in items if item % 2)
    return sum(squares), list(squares)


def generator_lambdas(values):
    echo = lambda: (yield from values)  # noqa: E731
    dead = lambda: 1 if True else (yield)  # noqa: E731  (a generator all the same)
    return list(echo()), type(dead()).__name__


def negated_filters(items):
    """``if not x`` in a generator expression: one generator expression still, named
    ``<genexpr>``."""
    falsy = (x for x in items if not x)
    pairs = (x + z for x in items if not x for z in items if not z if z is not None)
    return falsy, list(pairs), [x for x in items if not x], {x: 1 for x in items if not x}


FALSY = (x for x in (0, 1) if not x)


CASES = [
    ("negated_filters", ([0, 1, 0],)),
    ("count_up", (3,)), ("count_up", (0,)),
    ("generator_lambdas", ([1, 2],)),
    ("use_echo", ([1, 2, 3],)), ("use_echo", ([],)),
    ("delegate", (2,)),
    ("generator_with_finally", (5,)), ("generator_with_finally", (1,)),
    ("close_early", ()),
    ("generator_raises", (True,)), ("generator_raises", (False,)),
    ("throw_into", ()),
    ("bare_yield", ()),
    ("generator_expression", ([1, 2, 3, 4, 5],)),
]
