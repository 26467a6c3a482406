"""Shapes that the random-program sweeps found read wrong, one function each, named
after the shape, with the seed and Python that found it."""

LOG = []


class Gate:
    """A context manager that suppresses an exception when told to."""

    def __init__(self, suppress):
        self.suppress = suppress

    def __enter__(self):
        LOG.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", kind.__name__ if kind else None))
        return self.suppress


class Wait:
    def __await__(self):
        yield "wait"


class AsyncGate(Gate):
    async def __aenter__(self):
        await Wait()
        return self.__enter__()

    async def __aexit__(self, kind, value, traceback):
        await Wait()
        return self.__exit__(kind, value, traceback)


def with_breaking_a_while_then_code(rounds, fail, suppress):
    """The code after a with whose body always breaks runs only when ``__exit__``
    suppresses; then the loop goes on (seed 6677, 3.10 and 3.11)."""
    while rounds:
        rounds -= 1
        with Gate(suppress):
            if fail:
                raise ValueError(rounds)
            break
        LOG.append(("after", rounds))
    return rounds


async def async_with_breaking_a_while_then_code(items, fail, suppress):
    for item in items:
        while item:
            item -= 1
            async with AsyncGate(suppress):
                if fail:
                    raise ValueError(item)
                break
            LOG.append(("after", item))
    return items




def return_of_an_unbound_local_through_two_finally_bodies(items, values):
    """``return x`` with ``x`` unbound raises before either finally body runs: the inner
    one runs once, on the way out of the exception (seed 3135, 3.10)."""
    try:
        try:
            try:
                for item in items:
                    return x  # noqa: F821
            finally:

                def inner():
                    pass

                LOG.append(("finally", inner.__name__))
        finally:
            return [x for x in values]
    except Exception:
        x = values


def break_in_a_finally_inside_a_with(rounds, fail, stop):
    """A break in a finally body, with an exception in flight: it ends the loop, as
    the path with none does (seed 6550, 3.11 and 3.12)."""
    try:
        while True:
            if rounds < -3:
                return "ran on past the break"
            rounds -= 1
            with Gate(False):
                try:
                    if fail:
                        raise ValueError(rounds)
                finally:
                    if stop or rounds < 0:
                        break
                LOG.append(("after try", rounds))
            LOG.append(("after with", rounds))
    finally:
        LOG.append("finally")
    return rounds


CASES = [
    ("with_breaking_a_while_then_code", (3, True, True)),
    ("with_breaking_a_while_then_code", (3, False, True)),
    ("with_breaking_a_while_then_code", (3, True, False)),
    ("async_with_breaking_a_while_then_code", ([2, 3], True, True)),
    ("async_with_breaking_a_while_then_code", ([2, 3], False, True)),
    ("async_with_breaking_a_while_then_code", ([2], True, False)),
    ("return_of_an_unbound_local_through_two_finally_bodies", ([1, 2], [3])),
    ("return_of_an_unbound_local_through_two_finally_bodies", ([], [3])),
    ("break_in_a_finally_inside_a_with", (3, True, True)),
    ("break_in_a_finally_inside_a_with", (3, False, True)),
    ("break_in_a_finally_inside_a_with", (3, True, False)),
    ("break_in_a_finally_inside_a_with", (3, False, False)),
]
