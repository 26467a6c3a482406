"""Ways out of with statements: in loops whose body holds a with statement that a way
out of the loop's natural body runs through (code inside the with that never goes
back to the loop's header, because it raises, returns, or breaks after the
statement, even to the next round of the loop around, is still the loop's code, not
where the loop ends), and a return through a with and a finally body from inside a
try without one. Awaits are driven without an event loop, as in ``async_code.py``."""

LOG = []


class Tick:
    def __init__(self, label):
        self.label = label

    def __await__(self):
        yield self.label
        return f"after {self.label}"


class Box:
    def __init__(self, key, suppress=False):
        self.key, self.suppress = key, suppress

    def __enter__(self):
        LOG.append(("enter", self.key))
        return self.key

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.key, kind.__name__ if kind else None))
        return self.suppress and kind is not None and issubclass(kind, Exception)


class Countdown:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        await Tick(("next", self.n))
        return self.n


class Gate(Box):
    async def __aenter__(self):
        await Tick(("enter", self.key))
        return self.__enter__()

    async def __aexit__(self, kind, value, traceback):
        await Tick(("exit", self.key))
        return self.__exit__(kind, value, traceback)


def raises_after_a_with(tape, suppress):
    # the with's end goes on to a raise, never back to the header
    tape = list(tape)
    while True:
        with Box(len(tape), suppress):
            if tape.pop():
                continue
            LOG.append(1 // len(tape))
        raise KeyError(len(tape))


def returns_after_a_match(tape):
    tape = list(tape)
    while True:
        with Box(len(tape)) as key:
            match tape.pop():
                case str() | bytes():
                    if tape.pop():
                        continue
                    LOG.append(key)
                case other:
                    LOG.append(other)
        return key


async def breaks_after_an_await(n, suppress):
    async for i in Countdown(n):
        with Box(i, suppress) as j:
            await Tick(j)
            LOG.append(1 // i)
        break
    LOG.append(("end", n))
    return LOG


def breaks_to_the_next_round_after_a_with(rows, suppress):
    # every round of the inner loop breaks: 3.12+ send its breaks straight to the
    # outer loop's next round, and lay the code after the with out past the loop
    for row in rows:
        for i, j in enumerate(row):
            if j is None:
                pass
            elif j or len(row) > 3:
                with Box(j, suppress) as k:
                    LOG.append(1 // k)
                LOG.append((i, k))
            break
    return LOG


def breaks_to_the_next_round_after_a_try(rows):
    for row in rows:
        for j in row:
            if j is None:
                pass
            else:
                try:
                    LOG.append(1 // j)
                except ZeroDivisionError:
                    LOG.append("zero")
                LOG.append(j)
            break
    return LOG


async def async_breaks_to_the_next_round_after_a_with(n, suppress):
    async for i in Countdown(n):
        async for j in Countdown(i):
            if j == 1:
                pass
            elif j or i > 3:
                async with Gate(j, suppress) as k:
                    LOG.append(1 // (k - 2))
                LOG.append((i, k))
            break
    return LOG


async def returns_after_an_await_in_withs(n, suppress):
    # the pop of what the await gave starts a block of its own (3.12+): no break
    async for i in Countdown(n):
        with Box(i, suppress):
            with Box(-i, suppress) as j:
                await Tick(j)
                LOG.append(1 // (i - 1))
        return ("end", i)
    return ("none", n)


def returns_through_a_with_and_a_finally(key, suppress):
    # the return runs __exit__, then the finally body, inside a try without one
    try:
        LOG.append({"a": 1}[key])
    except KeyError:
        with Box(key, suppress) as k:
            try:
                try:
                    LOG.append(1 // len(k))
                except ZeroDivisionError as e:
                    return 17
            except Exception as e:
                LOG.append(type(e).__name__)
    finally:
        LOG.append("finally")
    return 0


CASES = [
    ("raises_after_a_with", ([0, 1, 1, 0], False)),
    ("raises_after_a_with", ([1, 1, 0], False)),
    ("raises_after_a_with", ([0, 0], True)),
    ("raises_after_a_with", ([0], True)),
    ("returns_after_a_match", ([0, "a", 3, 1, "b"],)),
    ("returns_after_a_match", ([1, "a", 0, "b"],)),
    ("returns_after_a_match", ([None, 0, "b"],)),
    ("breaks_after_an_await", (3, False)),
    ("breaks_after_an_await", (1, True)),
    ("breaks_after_an_await", (1, False)),
    ("breaks_after_an_await", (0, False)),
    ("breaks_to_the_next_round_after_a_with", ([[None, 1], [2, 5], [], [0, 1]], True)),
    ("breaks_to_the_next_round_after_a_with", ([[0, 1, 2, 3], [None]], True)),
    ("breaks_to_the_next_round_after_a_with", ([[3], [0, 1, 2, 3]], False)),
    ("breaks_to_the_next_round_after_a_try", ([[None, 1], [2], [0], []],)),
    ("async_breaks_to_the_next_round_after_a_with", (4, True)),
    ("async_breaks_to_the_next_round_after_a_with", (3, False)),
    ("async_breaks_to_the_next_round_after_a_with", (0, False)),
    ("returns_after_an_await_in_withs", (3, False)),
    ("returns_after_an_await_in_withs", (2, True)),
    ("returns_after_an_await_in_withs", (0, False)),
    ("returns_through_a_with_and_a_finally", ("a", False)),
    ("returns_through_a_with_and_a_finally", ("", False)),
    ("returns_through_a_with_and_a_finally", ("bc", False)),
    ("returns_through_a_with_and_a_finally", (None, False)),
    ("returns_through_a_with_and_a_finally", ((), True)),
]
