"""More async shapes: async generators, async with in every position, await in every
expression position, async comprehensions of every kind, async for with every exit.

Driven without an event loop, as in ``async_code.py``: each awaitable yields a label.
"""

LOG = []


class Tick:
    def __init__(self, label):
        self.label = label

    def __await__(self):
        yield self.label
        return f"after {self.label}"


async def value(x):
    await Tick(("value", x))
    return x


class Session:
    def __init__(self, name="s", suppress=False):
        self.name, self.suppress = name, suppress

    async def __aenter__(self):
        await Tick(("open", self.name))
        LOG.append(("enter", self.name))
        return self.name.upper()

    async def __aexit__(self, kind, value, traceback):
        await Tick(("close", self.name))
        LOG.append(("exit", self.name, kind.__name__ if kind else None))
        return self.suppress


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


class NotAsync:
    pass


# -- async generators ----------------------------------------------------------------


async def agen(n):
    for i in range(n):
        got = await value(i)
        yield got * 10


async def agen_with_async_for(n):
    async for i in Countdown(n):
        if i == 1:
            continue
        yield i
    yield "end"


async def agen_in_async_with(n):
    async with Session("gen") as name:
        for i in range(n):
            yield (name, i)


async def agen_try_finally(n):
    try:
        async for i in Countdown(n):
            yield i
            if i == 1:
                return
    finally:
        LOG.append("agen finally")


async def agen_await_in_yield(n):
    for i in range(n):
        yield await value(i)


async def agen_consumer(n):
    out = []
    async for item in agen(n):
        out.append(item)
    return out


# -- async with ----------------------------------------------------------------------


async def async_with_no_target():
    async with Session("plain"):
        LOG.append("body")
    return "after"


async def async_with_tuple_target():
    async with Session("tuple") as (first, *rest):
        LOG.append((first, rest))
    return first


async def async_with_attribute_target(holder):
    async with Session("attr") as holder.name:
        LOG.append(holder.name)
    return holder.name


async def async_with_nested(fail):
    async with Session("outer") as outer:
        async with Session("inner") as inner:
            LOG.append((outer, inner))
            if fail:
                raise ValueError("nested")
    return outer + inner


async def async_with_two_items():
    async with Session("a") as a, Session("b") as b:
        LOG.append(a + b)
    return a, b


async def async_with_return(flag):
    async with Session("ret") as name:
        if flag:
            return name
        LOG.append("no return")
    return "fell through"


async def async_with_return_await(flag):
    async with Session("retawait"):
        if flag:
            return await value("early")
    return await value("late")


async def async_with_suppress(fail):
    async with Session("quiet", suppress=True):
        if fail:
            raise KeyError("swallowed")
        LOG.append("no failure")
    return "after"


async def async_with_in_loop(n):
    out = []
    for i in range(n):
        async with Session(f"loop{i}") as name:
            if i == 1:
                continue
            if i == 3:
                break
            out.append(name)
    return out


async def async_with_in_while(n):
    while n:
        n -= 1
        async with Session("w"):
            if n == 1:
                break
    return n


async def async_with_in_async_for(n):
    out = []
    async for i in Countdown(n):
        async with Session(f"it{i}") as name:
            if i == 2:
                continue
            out.append(name)
    return out


async def async_with_in_try(fail):
    try:
        async with Session("try"):
            if fail:
                raise ValueError("in with")
    except ValueError as error:
        return str(error)
    finally:
        LOG.append("finally")
    return "ok"


async def async_with_not_a_manager(thing):
    async with thing:
        LOG.append("never")
    return "no"


async def with_inside_async_with():
    async with Session("async") as outer:
        with open_sync("sync") as inner:
            LOG.append((outer, inner))
    return outer


class SyncManager:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        LOG.append(("sync enter", self.name))
        return self.name

    def __exit__(self, kind, value, traceback):
        LOG.append(("sync exit", self.name))
        return False


def open_sync(name):
    return SyncManager(name)


# -- await in every expression position --------------------------------------------------


async def await_positions(x):
    a = await value(x) + await value(1)
    b = -(await value(x))
    c = [await value(1), await value(2)]
    d = {await value("k"): await value("v")}
    e = (await value(x))[0] if isinstance(x, tuple) else await value(x)
    f = await value(x) and await value(0) or await value(3)
    g = f"{await value('s')}!"
    h = (await value(len))("abc")
    i = (await value(x)) < (await value(5)) < (await value(10))
    j = {**(await value({"z": 1}))}
    k = [*(await value([1, 2]))]
    return a, b, c, d, e, f, g, h, i, j, k


async def await_in_call(x):
    return max(await value(x), await value(2), key=await value(abs))


async def await_in_subscript_store(store, key):
    store[await value(key)] = await value("stored")
    del store[await value("gone")]
    return store


async def await_in_attribute(holder):
    holder.name = await value("named")
    return (await value(holder)).name


async def await_in_condition(x):
    if await value(x):
        return "true"
    while await value(x) > 5:
        x -= 1
    return x


async def await_in_lambda_default(x):
    f = lambda y=None: y  # noqa: E731
    return f(await value(x))


async def await_walrus(x):
    if (got := await value(x)) > 1:
        return got
    return -got


async def await_in_augassign(x):
    total = 0
    total += await value(x)
    total *= await value(2)
    return total


async def await_in_assert(x):
    assert await value(x), await value("message")
    return x


async def await_in_raise(kind):
    raise (await value(kind))("raised")


async def await_in_return_tuple(x):
    return await value(x), await value(x + 1)


async def await_await(x):
    return await value(await value(x))


async def await_in_slice(seq):
    return seq[await value(1) : await value(3)]


async def await_in_fstring_spec(x):
    return f"{x:{await value('>5')}}"


async def await_in_yield_expr(n):
    for i in range(n):
        sent = yield await value(i)
        LOG.append(sent)


# -- async comprehensions ----------------------------------------------------------------


async def async_listcomp(n):
    return [i async for i in Countdown(n)]


async def async_setcomp(n):
    return {i % 2 async for i in Countdown(n)}


async def async_dictcomp(n):
    return {i: i * i async for i in Countdown(n)}


async def async_genexpr(n):
    gen = (i * 2 async for i in Countdown(n))
    return [x async for x in gen]


async def async_comp_condition(n):
    return [i async for i in Countdown(n) if i % 2 if i > 0]


async def async_comp_nested(n):
    return [(i, j) async for i in Countdown(n) for j in range(i) if j]


async def async_comp_nested_async(n):
    return [(i, j) for i in range(n) async for j in Countdown(i)]


async def await_in_plain_comp(n):
    return [await value(i) for i in range(n)]


async def await_in_comp_condition(n):
    return [i for i in range(n) if await value(i % 2)]


async def async_comp_await_elt(n):
    return {await value(i): i async for i in Countdown(n)}


async def async_comp_as_argument(n):
    return sorted([i async for i in Countdown(n)], reverse=True)


async def async_comp_nested_comp(n):
    return [[j async for j in Countdown(i)] async for i in Countdown(n)]


async def async_genexpr_argument(n):
    gen = (await value(i) for i in range(n))
    return [x async for x in gen]


async def async_comp_in_yield(n):
    yield [i async for i in Countdown(n)]


async def async_comp_in_lambda_body(n):
    f = lambda: (i async for i in Countdown(n))  # noqa: E731
    return [x async for x in f()]


async def async_comp_shadowing(n):
    i = "kept"
    listed = [i async for i in Countdown(n)]
    return i, listed


async def async_comp_in_class(n):
    class Holder:
        items = [1, 2]
        gen = (x async for x in Countdown(n))

    return Holder.items, [x async for x in Holder.gen]


# -- async for with every exit -------------------------------------------------------------


async def async_for_else_break(n, stop):
    async for i in Countdown(n):
        if i == stop:
            LOG.append("break")
            break
        LOG.append(i)
    else:
        LOG.append("else")
    return "after"


async def async_for_return(n, stop):
    async for i in Countdown(n):
        if i == stop:
            return i
    return None


async def async_for_continue_break(n):
    out = []
    async for i in Countdown(n):
        if i % 2:
            continue
        if i == 0:
            break
        out.append(i)
    return out


async def async_for_try_inside(n):
    out = []
    async for i in Countdown(n):
        try:
            out.append(10 // (i - 2))
        except ZeroDivisionError:
            out.append("zero")
            continue
        finally:
            LOG.append(("finally", i))
    return out


async def async_for_in_try_finally(n, fail):
    try:
        async for i in Countdown(n):
            if fail and i == 1:
                raise ValueError("stop")
            LOG.append(i)
    finally:
        LOG.append("cleanup")
    return "done"


async def async_for_in_try_except(n):
    try:
        async for i in Countdown(n):
            LOG.append(10 // (i - 1))
    except ZeroDivisionError:
        return "caught"
    return "clean"


async def async_for_nested(n):
    out = []
    async for i in Countdown(n):
        async for j in Countdown(i):
            if j == 1:
                break
            out.append((i, j))
        else:
            out.append(("else", i))
    return out


async def async_for_in_for(n):
    out = []
    for k in range(2):
        async for i in Countdown(n):
            if i == k:
                break
            out.append((k, i))
    return out


async def async_for_tuple_target(pairs):
    out = []
    async for a, b in aiter_of(pairs):
        out.append(a + b)
    return out


async def async_for_attribute_target(holder, n):
    async for holder.last in Countdown(n):
        pass
    return holder.last


async def async_for_not_iterable(thing):
    async for x in thing:
        return x
    return "empty"


async def async_for_returns_in_with(n):
    async with Session("loop"):
        async for i in Countdown(n):
            if i == 1:
                return i
    return None


async def async_for_break_else_return(n, stop):
    async for i in Countdown(n):
        if i == stop:
            break
    else:
        return "exhausted"
    return i


async def async_for_while_inside(n):
    out = []
    async for i in Countdown(n):
        while i:
            i -= 1
            if i == 1:
                break
        out.append(i)
    return out


class AsyncIterOf:
    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return self.items.pop(0)


def aiter_of(items):
    return AsyncIterOf(items)


class IteratorWithoutNext:
    def __aiter__(self):
        LOG.append("aiter called")
        return self


class NextNotAwaitable:
    def __aiter__(self):
        return self

    def __anext__(self):
        LOG.append("anext called")
        return 42


class Holder:
    name = None
    last = None


async def returns_from_nested_async_fors_in_an_async_with(n):
    # the returned value waits on the stack while both iterators are popped and the
    # async with exits: the awaited exit's result popped before the return is no
    # break's pop of an iterator (random seed 12921, 3.12+)
    async with Session("nested") as name:
        async for x in Countdown(n):
            async for y in Countdown(n):
                return (name, x, y)
    return "none"


CASES = [
    ("returns_from_nested_async_fors_in_an_async_with", (2,)),
    ("returns_from_nested_async_fors_in_an_async_with", (0,)),
    ("agen", (3,)),
    ("agen_with_async_for", (4,)),
    ("agen_in_async_with", (2,)),
    ("agen_try_finally", (3,)), ("agen_try_finally", (0,)),
    ("agen_await_in_yield", (2,)),
    ("agen_consumer", (3,)),
    ("async_with_no_target", ()),
    ("async_with_tuple_target", ()),
    ("async_with_attribute_target", (Holder(),)),
    ("async_with_nested", (False,)), ("async_with_nested", (True,)),
    ("async_with_two_items", ()),
    ("async_with_return", (True,)), ("async_with_return", (False,)),
    ("async_with_return_await", (True,)), ("async_with_return_await", (False,)),
    ("async_with_suppress", (True,)), ("async_with_suppress", (False,)),
    ("async_with_in_loop", (5,)),
    ("async_with_in_while", (4,)),
    ("async_with_in_async_for", (4,)),
    ("async_with_in_try", (True,)), ("async_with_in_try", (False,)),
    ("async_with_not_a_manager", (NotAsync(),)), ("async_with_not_a_manager", (Session(),)),
    ("with_inside_async_with", ()),
    ("await_positions", ((1, 2),)), ("await_positions", (7,)),
    ("await_in_call", (-5,)),
    ("await_in_subscript_store", ({"gone": 1}, "key")),
    ("await_in_attribute", (Holder(),)),
    ("await_in_condition", (7,)), ("await_in_condition", (0,)),
    ("await_in_lambda_default", (3,)),
    ("await_walrus", (2,)), ("await_walrus", (1,)),
    ("await_in_augassign", (4,)),
    ("await_in_assert", (1,)), ("await_in_assert", (0,)),
    ("await_in_raise", (KeyError,)),
    ("await_in_return_tuple", (1,)),
    ("await_await", (5,)),
    ("await_in_slice", ("abcdef",)),
    ("await_in_fstring_spec", ("x",)),
    ("await_in_yield_expr", (2,)),
    ("async_listcomp", (3,)),
    ("async_setcomp", (4,)),
    ("async_dictcomp", (3,)),
    ("async_genexpr", (3,)),
    ("async_comp_condition", (6,)),
    ("async_comp_nested", (4,)),
    ("async_comp_nested_async", (3,)),
    ("await_in_plain_comp", (3,)),
    ("await_in_comp_condition", (4,)),
    ("async_comp_await_elt", (3,)),
    ("async_comp_as_argument", (3,)),
    ("async_comp_nested_comp", (3,)),
    ("async_genexpr_argument", (3,)),
    ("async_comp_in_yield", (3,)),
    ("async_comp_in_lambda_body", (3,)),
    ("async_comp_shadowing", (3,)),
    ("async_comp_in_class", (2,)),
    ("async_for_else_break", (4, 2)), ("async_for_else_break", (4, 9)),
    ("async_for_return", (4, 1)), ("async_for_return", (4, 9)),
    ("async_for_continue_break", (6,)),
    ("async_for_try_inside", (4,)),
    ("async_for_in_try_finally", (3, True)), ("async_for_in_try_finally", (3, False)),
    ("async_for_in_try_except", (3,)), ("async_for_in_try_except", (1,)),
    ("async_for_nested", (4,)),
    ("async_for_in_for", (3,)),
    ("async_for_tuple_target", ([(1, 2), (3, 4)],)),
    ("async_for_attribute_target", (Holder(), 3)),
    ("async_for_not_iterable", (5,)), ("async_for_not_iterable", (Countdown(1),)),
    ("async_for_not_iterable", (IteratorWithoutNext(),)),
    ("async_for_not_iterable", (NextNotAwaitable(),)),
    ("async_for_returns_in_with", (3,)), ("async_for_returns_in_with", (1,)),
    ("async_for_break_else_return", (4, 2)), ("async_for_break_else_return", (4, 9)),
    ("async_for_while_inside", (4,)),
]


# -- mixed ------------------------------------------------------------------------------


async def await_in_clauses(fail):
    try:
        if fail:
            raise ValueError(await value("raising"))
        await value("body")
    except ValueError as error:
        got = await value(str(error))
        return got
    finally:
        await value("finally")
    return "clean"


async def return_await_in_finally(fail):
    try:
        if fail:
            raise KeyError("lost")
        return "body"
    finally:
        return await value("finally wins")


async def async_with_in_clause(fail):
    try:
        if fail:
            raise ValueError("to clause")
    except ValueError:
        async with Session("clause") as name:
            return name
    return "none"


async def async_for_in_async_with_exits(n):
    out = []
    async with Session("around"):
        async for i in Countdown(n):
            if i == 3:
                continue
            if i == 1:
                break
            out.append(i)
        else:
            out.append("else")
    return out


async def async_for_try_except_continue(n):
    out = []
    async for i in Countdown(n):
        try:
            if i % 2:
                raise ValueError(i)
        except ValueError:
            continue
        out.append(i)
    else:
        out.append("exhausted")
    return out


async def agen_nested(n):
    async for i in Countdown(n):
        async with Session(f"g{i}") as name:
            if i == 0:
                return
            yield name


async def await_in_comprehension_iter(n):
    return [x * 2 for x in await value(list(range(n)))]


async def nested_async_closures(n):
    base = await value(n)

    async def inner(k):
        return base + await value(k)

    return [await inner(i) async for i in Countdown(2)]


async def while_await_else(n):
    while await value(n) > 0:
        n -= 1
        if n == 5:
            break
    else:
        return "counted down"
    return n


async def async_comp_dict_filters(n):
    return {i: [j async for j in Countdown(i) if j] async for i in Countdown(n) if i > 1}


async def async_setcomp_await_cond(n):
    return {i async for i in Countdown(n) if await value(i != 1)}


async def async_genexpr_in_call(n):
    return await collect(i + 1 async for i in Countdown(n))


async def collect(gen):
    return [x async for x in gen]


async def async_for_else_continue(n):
    count = 0
    async for i in Countdown(n):
        if i == 1:
            continue
        count += 1
    else:
        count += 100
    return count


async def agen_send(n):
    total = 0
    for i in range(n):
        got = yield total
        total += got or i
    yield ("total", total)


async def try_finally_around_async_for_break(n):
    try:
        async for i in Countdown(n):
            if i == 1:
                break
    finally:
        LOG.append("finally")
    return i


async def async_for_break_in_try(n):
    async for i in Countdown(n):
        try:
            if i == 2:
                break
        finally:
            LOG.append(("finally", i))
    return i


async def async_with_continue_in_while(n):
    while n > 0:
        n -= 1
        async with Session("c"):
            if n % 2:
                continue
            LOG.append(n)
    return n


async def break_through_async_with(n):
    async for i in Countdown(n):
        async with Session(f"b{i}") as name:
            if i == 2:
                break
            LOG.append(name)
    return i

async def return_through_async_with_in_loop(n):
    async for i in Countdown(n):
        async with Session(f"r{i}") as name:
            if i == 2:
                return name
    return None

async def agen_yield_in_except(n):
    async for i in Countdown(n):
        try:
            if i % 2:
                raise ValueError(i)
        except ValueError as e:
            yield ("caught", str(e))
        else:
            yield i

async def agen_break_in_async_with(n):
    async with Session("g") as name:
        async for i in Countdown(n):
            if i == 1:
                break
            yield name, i
    yield "end"

async def nested_async_with_break_continue(n):
    out = []
    async for i in Countdown(n):
        async with Session("o"):
            async with Session("i"):
                if i == 3:
                    continue
                if i == 1:
                    break
                out.append(i)
    return out

async def await_in_while_with_try(n):
    while n:
        try:
            n = await value(n - 1)
            if n == 2:
                continue
        finally:
            LOG.append(n)
    return n

async def comp_with_await_in_iter_and_cond(n):
    return [await value(x) for x in await value(range(n)) if await value(x % 2)]

async def async_for_star_target(items):
    out = []
    async for first, *rest in aiter_of(items):
        out.append((first, rest))
    return out



def sync_makes_async_genexpr(n):
    return (i * 2 async for i in Countdown(n))


def sync_makes_nested_async_genexpr(n):
    return ((i, j) async for i in Countdown(n) for j in range(i) if j)


class GeneratorFactory:
    make = staticmethod(lambda n: (i async for i in Countdown(n) if i))


async def awaits_in_a_genexpr(n):
    return [y async for y in (await value(v) for v in range(n))]


async def for_in_async_with_exits(n):
    out = []
    async with Session("around"):
        for i in range(n):
            if i == 3:
                continue
            if i == 1:
                break
            out.append(i)
        else:
            out.append("else")
    return out


async def async_for_in_with_exits(guard, n):
    out = []
    with guard:
        async for i in Countdown(n):
            if i == 3:
                continue
            if i == 1:
                break
            out.append(i)
        else:
            out.append("else")
    return out


CASES += [
    ("sync_makes_async_genexpr", (3,)),
    ("sync_makes_nested_async_genexpr", (4,)),
    ("GeneratorFactory.make", (3,)),
    ("awaits_in_a_genexpr", (3,)),
    ("break_through_async_with", (4,)),
    ("return_through_async_with_in_loop", (4,)), ("return_through_async_with_in_loop", (1,)),
    ("agen_yield_in_except", (4,)),
    ("agen_break_in_async_with", (3,)), ("agen_break_in_async_with", (0,)),
    ("nested_async_with_break_continue", (5,)),
    ("await_in_while_with_try", (4,)),
    ("comp_with_await_in_iter_and_cond", (4,)),
    ("async_for_star_target", ([(1, 2, 3), (4,)],)),
    ("for_in_async_with_exits", (5,)), ("for_in_async_with_exits", (1,)),
    ("async_for_in_with_exits", (open_sync("g"), 5)), ("async_for_in_with_exits", (open_sync("g"), 1)),
    ("await_in_clauses", (True,)), ("await_in_clauses", (False,)),
    ("return_await_in_finally", (True,)), ("return_await_in_finally", (False,)),
    ("async_with_in_clause", (True,)), ("async_with_in_clause", (False,)),
    ("async_for_in_async_with_exits", (5,)), ("async_for_in_async_with_exits", (0,)),
    ("async_for_try_except_continue", (5,)),
    ("agen_nested", (3,)),
    ("await_in_comprehension_iter", (3,)),
    ("nested_async_closures", (2,)),
    ("while_await_else", (7,)), ("while_await_else", (3,)),
    ("async_comp_dict_filters", (4,)),
    ("async_setcomp_await_cond", (4,)),
    ("async_genexpr_in_call", (3,)),
    ("async_for_else_continue", (4,)),
    ("agen_send", (3,)),
    ("try_finally_around_async_for_break", (3,)),
    ("async_for_break_in_try", (4,)),
    ("async_with_continue_in_while", (4,)),
    ("async_for_clause_then_else_finally", (2, False)),
    ("async_for_clause_then_else_finally", (2, True)),
]


async def async_for_clause_then_else_finally(n, fail):
    """An except clause ending in an async for, then an else, under a finally (random
    seed 1861 on 3.10): 3.10 copies the finally body and the return after it to the
    clause's end and to the else's, so they never meet, and the else was written
    after the try, where the clause ran it too."""
    log = []
    try:
        if fail:
            raise ValueError(n)
        log.append("body")
    except ValueError:
        async for i in Countdown(n):
            log.append(i)
    else:
        log.append(await value("else"))
    finally:
        log.append("finally")
    return log
