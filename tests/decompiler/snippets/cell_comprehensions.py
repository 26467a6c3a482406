"""Comprehensions whose variable a lambda closes over (3.12+ inline them and give each
run a fresh cell), in every kind of body. The state machine, forced on each function
(test_behaviour.py) and on this module (test_module_state_machine.py), must keep one
cell per run: a closure made in an earlier run must not see a later run's values, and
a variable of the same name outside must keep its own (random seeds 421, 667, 765)."""

LOG = []


class Tick:
    def __init__(self, label):
        self.label = label

    def __await__(self):
        yield self.label
        return self.label


class Countdown:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        await Tick(self.n)
        return self.n


def runs_keep_their_cells(n):
    i = "outer"
    made = []
    for k in range(n):
        made.append([lambda: i for i in range(k + 2)])  # noqa: B023
    late = [lambda: i for i in range(n)]  # noqa: B023
    return [[f() for f in run] for run in made], [f() for f in late], i


def comprehensions_of_each_kind(items, cut):
    listed = [lambda: x for x in items if x > cut]  # noqa: B023
    sets = {(x, lambda: x) for x in items}  # noqa: B023
    keyed = {x: lambda: x * 2 for x in items if x}  # noqa: B023
    return (
        [f() for f in listed],
        sorted(k for k, _ in sets),
        sorted(f() for _, f in sets),
        {k: f() for k, f in keyed.items()},
    )


def nested_runs(rows):
    grid = [[lambda: (i, j) for j in row] for i, row in enumerate(rows)]  # noqa: B023
    flat = [lambda: (i, j) for i in rows for j in i]  # noqa: B023
    return [[f() for f in line] for line in grid], [f() for f in flat]


def inside_a_try(items, fail):
    made = []
    try:
        made = [lambda: x for x in items]  # noqa: B023
        if fail:
            raise ValueError(len(made))
    except ValueError as e:
        why = e.args
        made += [lambda: (x, why) for x in items[:1]]  # noqa: B023
    finally:
        LOG.append(len(made))
    return [f() for f in made]


def in_a_loop(n):
    out = []
    while n > 0:
        fs = [lambda: (v, n) for v in range(n)]  # noqa: B023
        n -= 1
        if n == 2:
            continue
        out.append([f() for f in fs])
    return out


def in_a_generator(n):
    for k in range(n):
        fs = [lambda: v for v in range(k + 1)]  # noqa: B023
        yield [f() for f in fs]
    yield [f() for f in [lambda: k * 10 for k in range(n)]]  # noqa: B023


async def in_a_coroutine(n):
    await Tick("start")
    fs = [lambda: v for v in range(n)]  # noqa: B023
    awaited = [lambda: v async for v in Countdown(n)]  # noqa: B023
    got = [await Tick(f()) for f in fs]
    return got, [f() for f in awaited]


async def awaits_in_one(n):
    got = [(await Tick(v), lambda: v) for v in range(n)]  # noqa: B023
    return [(a, f()) for a, f in got]


def walrus_and_a_default(items, c):
    last = "before"
    fs = [(last := v, lambda: v if c else -v)[1] for v in items if v] or [lambda: "none"]  # noqa: B023
    return last, [f() for f in fs]


def in_a_class_body(items):
    class Table:
        x = "class"
        rows = [lambda: x for x in items]  # noqa: B023
        kept = x

    return [f() for f in Table.rows], Table.kept, sorted(vars(Table).keys() - {"__firstlineno__"})


def in_a_method(items):
    class Shelf:
        def __init__(self, base):
            self.base = base

        def makers(self):
            return [lambda: (self.base, x) for x in items]  # noqa: B023

    return [f() for f in Shelf(7).makers()]


def free_name_in_a_class_body(items):
    # 3.12+: the class body holds a free ``i`` (for Inner) and the comprehension's own
    # cell ``i``; the comprehension's store is no ``nonlocal i`` (random seeds 2661, 7001)
    i = 0

    class Table:
        [i, j] = [5, 6]

        class Inner:
            got = i

        rows = [lambda: i for i in items]  # noqa: B023
        kept = i

    return Table.Inner.got, i, [f() for f in Table.rows], Table.kept


# the module's own body: a comprehension whose closures keep their run's cell
i = "module"
MODULE_RUNS = [[lambda: i for i in range(k)] for k in range(3)]  # noqa: B023
MODULE_VALUES = [[f() for f in run] for run in MODULE_RUNS]
MODULE_I = i


class AtModuleLevel:
    i = "class"
    funcs = [lambda: i for i in range(3)]  # noqa: B023
    values = [f() for f in funcs]
    kept = i


CASES = [
    ("runs_keep_their_cells", (0,)),
    ("runs_keep_their_cells", (3,)),
    ("comprehensions_of_each_kind", ([0, 1, 2, 3], 1)),
    ("nested_runs", ([[1, 2], [3]],)),
    ("inside_a_try", ([1, 2], False)),
    ("inside_a_try", ([1, 2], True)),
    ("in_a_loop", (4,)),
    ("in_a_generator", (3,)),
    ("in_a_coroutine", (3,)),
    ("awaits_in_one", (3,)),
    ("walrus_and_a_default", ([0, 1, 2], True)),
    ("walrus_and_a_default", ([0], False)),
    ("in_a_class_body", ([1, 2],)),
    ("in_a_method", ([1, 2],)),
    ("free_name_in_a_class_body", ([1, 2],)),
]
