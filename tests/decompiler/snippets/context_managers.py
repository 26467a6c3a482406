"""with and with-as, several items, nesting, suppression, return and break inside."""

import contextlib

LOG = []


class Resource:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        LOG.append(("enter", self.name))
        return self.name.upper()

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.name, kind.__name__ if kind else None))
        return self.suppress


def with_as(name):
    with Resource(name) as handle:
        LOG.append(("body", handle))
    return handle


def with_without_as(fail):
    with Resource("plain"):
        if fail:
            raise ValueError("inside")
    return "done"


def two_items(a, b):
    with Resource(a) as first, Resource(b) as second:
        return first + second


def nested_with(fail):
    with Resource("outer"):
        with Resource("inner", suppress=True):
            if fail:
                raise KeyError("suppressed")
            LOG.append("inner body")
        LOG.append("after inner")
    return "ok"


def with_in_loop(names):
    for name in names:
        with Resource(name):
            if name == "skip":
                continue
            if name == "stop":
                break
            LOG.append(("used", name))
    return len(LOG)


def with_and_try(fail):
    try:
        with Resource("guarded"):
            if fail:
                raise RuntimeError("boom")
    except RuntimeError as error:
        return f"caught {error}"
    return "clean"


def with_target_unpacking():
    class Pair:
        def __enter__(self):
            return 1, 2

        def __exit__(self, *args):
            return False

    with Pair() as (x, y):
        return x + y


def while_in_with(n):
    with Resource("loop"):
        while n:
            LOG.append(("step", 10 // n))  # a lost break would divide by zero, not hang
            n -= 1
    return n


def returns_from_loop_in_with(chunks, other):
    it = iter(chunks)
    with Resource("cmp"):
        while True:  # never ends on its own: leaves the with body by returning only
            chunk = next(it, "")
            if chunk != other:
                return False  # 3.12+: laid out like the with's normal exit
            if not chunk:
                return True


def breaks_out_of_clauses(names, fail):
    # each break goes on to the code after the loop, which the compiler copies there
    for name in names:
        try:
            with Resource(name):
                with Resource(name + "!"):
                    if name == fail:
                        raise ValueError(name)
                    if name == "stop":
                        break
        except ValueError:
            LOG.append(("failed", name))
            break
    return len(LOG)


def continue_through_withs(names):
    # the with statements end the loop's body: they go on to the next round, as a
    # continue through them does, and a break does not
    i = 0
    while i < len(names):
        name = names[i]
        i += 1
        with Resource(name):
            with Resource(name + "?"):
                if name == "skip":
                    continue
                if name == "stop":
                    break
                LOG.append(("used", name))
    else:
        LOG.append("no stop")
    LOG.append(i)
    return len(LOG)


def returns_from_a_try_inside_a_with(value):
    # 3.12+ lay the except clause out after the with's own exit: that exit, not the
    # return's copy of it, ends the with body (taking the copy lost both returns)
    with contextlib.suppress(KeyError):
        try:
            if isinstance(value, dict):
                return {}[value["key"]]
            if isinstance(value, list):
                raise ValueError(value[0])
        except ValueError as error:
            return f"value error {error}"
    return "suppressed or unmatched"


def returns_on_every_path(value, suppress):
    # a suppressed exception goes on after the with, which no other path reaches
    with Resource("every", suppress):
        if 1 / value > 0.5:
            return "big"
        return "small"
    LOG.append("suppressed")
    return "after"


def returns_on_every_path_at_the_end(value, suppress):
    with Resource("end", suppress):
        if 1 / value > 0.5:
            return "big"
        return "small"


def returns_on_one_path(value, suppress):
    with Resource("one", suppress):
        if 1 / value > 0.5:
            return "big"
    LOG.append("after")
    return "small"


def returns_on_every_path_in_a_loop(values, suppress):
    for value in values:
        with Resource("loop", suppress):
            if 1 / value > 0.5:
                return "big"
            return "small"
    return "none"


def nested_withs_end_a_branch(flag):
    # the code after the inner with (the outer's exit, the implicit return) is copied
    # into the inner one's suppressing path: that copy is where it ends, not a return
    if flag:
        with Resource("outer"):
            with Resource("inner", suppress=True):
                LOG.append(1 / flag)
    else:
        return "no"


def with_breaks_a_while(tries, suppress):
    # the body always breaks: only a suppressed exception goes round again
    while tries:
        tries -= 1
        with Resource("attempt", suppress=suppress):
            LOG.append(1 / tries)
            break
    return tries


def clause_then_code_in_a_with(env, suppress):
    # the return after the with is also where a suppressed exception goes on
    found = None
    with Resource("lookup", suppress):
        try:
            found = env["key"]
        except KeyError:
            pass
        LOG.append(found.upper())
    return found


def find_definition(lines, wanted):
    # 3.12+ leave the loop's jump back to its header unprotected by the with
    found = None
    with Resource("source"):
        for number, line in enumerate(lines):
            if line.startswith(wanted):
                try:
                    found = number + int(line[len(wanted) :])
                except ValueError:
                    pass
    return found


def clause_ends_a_with(mapping):
    # 3.10 copies the with's exit and the return after it to the end of the clause
    with Resource("guard"):
        try:
            LOG.append(mapping["key"])
        except KeyError:
            pass
    return len(LOG)


def value_or_none(store, key, suppress):
    # a with body that returns, inside a try body: where __exit__ suppressing goes on
    # is the end of the try body
    try:
        with Resource(key, suppress) as handle:
            return store[handle]
    except KeyError:
        pass
    return None


def fetch(value):
    if value is None:
        raise KeyError("missing")
    return value


def returns_from_a_with_in_a_try(suppress, value):
    # a suppressed exception goes on after the try, past the clause
    try:
        with Resource("try", suppress):
            return fetch(value)
    except KeyError:
        return "caught"


def retries_a_with(suppress, value):
    for _ in range(2):
        try:
            with Resource("retry", suppress):
                return fetch(value)
        except KeyError:
            continue
    return "done"


# Returns from with bodies, each run with __exit__ suppressing and not, the body
# raising and not: where a suppressed exception goes on is code the compiler
# copies and lays out apart from the return.


def returns_then_code_after(suppress, value):
    with Resource("after", suppress):
        return fetch(value)
    return "after"


def returns_at_the_end(suppress, value):
    with Resource("end", suppress):
        return fetch(value)


def returns_in_a_for_loop(suppress, value):
    for _ in [1, 2]:
        with Resource("for", suppress):
            return fetch(value)
    return "loop end"


def returns_under_a_finally(suppress, value):
    try:
        with Resource("finally", suppress):
            return fetch(value)
    finally:
        LOG.append("finally")


def returns_in_an_if(suppress, value, taken=True):
    if taken:
        with Resource("if", suppress):
            return fetch(value)
    return "not taken"


def returns_in_a_while_loop(suppress, value):
    rounds = 0
    while rounds < 3:
        rounds += 1
        with Resource("while", suppress):
            return fetch(value)
    return rounds


def returns_from_nested_withs(suppress, value):
    with Resource("outer", suppress):
        with Resource("inner", not suppress):
            return fetch(value)
    return "outer after"


def copies_unless_fast(suppress, fast, value):
    # an if in nested withs whose else returns from a try: the branches meet at the
    # copy, before the inner __exit__ suppressing joins the way out (shutil.copyfile)
    with Resource("source"):
        with Resource("target", suppress):
            if fast:
                pass
            else:
                try:
                    return fetch(value)
                except KeyError:
                    LOG.append("give up")
            LOG.append("copy")
            fetch(fast)
    return "copied"


def copies_into(suppress, fast, value):
    # the inner try's clause and the if meet at the copy, inside the with that a
    # try around it protects: __exit__ suppressing joins only after (shutil.copyfile)
    with Resource("source"):
        try:
            with Resource("target", suppress):
                if fast:
                    try:
                        return fetch(value)
                    except KeyError:
                        LOG.append("give up")
                LOG.append("copy")
                fetch(fast)
        except KeyError as error:
            raise LookupError("no target") from error
    return "copied"


def serves_until_closed(suppress, events):
    # a return in a for loop in an endless loop: the only way out of the with, so its
    # copy of __exit__ is no end of the with's body (telnetlib.Telnet.interact)
    with Resource("selector", suppress):
        while True:
            for event in fetch(events).pop():
                if event:
                    LOG.append(event)
                    continue
                return "closed"


def serves_until_empty(events):
    # the same with a value computed before the iterator is popped
    with Resource("selector"):
        while True:
            for event in events.pop():
                if event:
                    continue
                return len(events) + 1


def reads_until_closed(suppress, rounds):
    # the clause's return is a way out of the with too, not where its body ends
    with Resource("selector", suppress):
        while True:
            for ready in rounds.pop():
                if ready:
                    try:
                        text = fetch(ready[0])
                    except KeyError:
                        LOG.append("closed")
                        return
                    LOG.append(text)
                else:
                    return "idle"


def raises_then_breaks(suppress, rounds):
    # only __exit__ suppressing gets past the with: the break after it still runs
    while rounds:
        rounds -= 1
        if rounds % 2:
            LOG.append(rounds)
        else:
            with Resource("box", suppress):
                raise KeyError(rounds)
            break
    return rounds


def returns_through_a_finally(suppress, value):
    # the finally body's copy runs before __exit__'s on the way out of the return
    with Resource("box", suppress) as name:
        try:
            return fetch(value)
        except KeyError:
            LOG.append("missing")
        finally:
            LOG.append(name)


def returns_early_in_a_with(suppress, value):
    # the try body only returns (through the with's __exit__) or raises: the clause
    # alone goes on, past the with
    with Resource("box", suppress):
        try:
            if value:
                return value
            raise KeyError("none")
        except KeyError:
            LOG.append("missing")
    LOG.append("after")
    return "after"


def loops_after_a_returning_with(suppress, values):
    # the body always leaves: only __exit__ suppressing gets to the loop after the
    # with, which 3.10 and 3.11 lay out in the handler's last block
    with Resource("first", suppress):
        return fetch(values[0])
    for value in values:
        LOG.append(value)
    return "after"


def tests_after_a_returning_with(suppress, value):
    # likewise, the code after the with starting with a test
    with Resource("first", suppress):
        return fetch(value)
    if value is None:
        LOG.append("none")
    LOG.append("after")


def continue_ends_a_with(rounds, suppress):
    # the continue's copy of __exit__ is laid out before the body's own, which
    # goes to the loop test's copy at the end of the loop
    while rounds:
        rounds -= 1
        with Resource("round", suppress):
            LOG.append(1 / (rounds % 3))
            if rounds % 2:
                continue


def continue_in_a_with_in_a_finally(rounds, suppress):
    # the finally body's copy for an exception runs the with and re-raises after
    # it, unless the with body continues
    while rounds:
        rounds -= 1
        try:
            LOG.append(1 / (rounds % 4))
        finally:
            with Resource("cleanup", suppress):
                LOG.append(1 / (rounds % 3))
                if rounds % 2:
                    continue
    return rounds


def with_in_a_finally_in_a_loop(values, suppress):
    # the with in the finally body's copy for an exception ends in a re-raise, not
    # out of the loop the try is in
    for value in values:
        try:
            LOG.append(1 / value)
        finally:
            with Resource("cleanup", suppress) as name:
                LOG.append(name)
    return len(values)


def with_ends_a_clause(value, suppress):
    # the with's end and the suppressing path meet at the clause's own POP_EXCEPT
    try:
        LOG.append(1 / value)
    except ZeroDivisionError as error:
        with Resource("clause", suppress):
            LOG.append(str(error) + 1)
    with Resource("after") as name:
        LOG.append(name)


def returns_from_nested_withs_in_a_clause(value, suppress):
    # the return unbinds the clause's name after both exits
    try:
        LOG.append(1 / value)
    except ZeroDivisionError as error:
        with Resource("outer") as name:
            with Resource("inner", suppress):
                LOG.append(str(error) + name)
                return name
    return "none"


def returns_through_a_with_and_a_finally(value, suppress):
    # the finally body's copy runs between __exit__ and the return
    try:
        with Resource("box", suppress):
            if fetch(value) > 2:
                return "big"
    finally:
        LOG.append("finally")
    return "small"


def breaks_through_a_with_and_a_finally(rounds, suppress):
    while rounds:
        rounds -= 1
        try:
            with Resource("box", suppress):
                LOG.append(1 / (rounds % 3))
                if rounds % 2:
                    break
        finally:
            LOG.append(rounds)


def returns_through_finally_bodies_around_a_with(value, suppress):
    # the inner try's finally body's copy, both exits and the outer finally body's
    # copy run before the return
    try:
        with Resource("outer", suppress):
            with Resource("inner"):
                try:
                    LOG.append(1 / value)
                    return value
                except ZeroDivisionError:
                    if suppress:
                        return
                finally:
                    LOG.append("inner")
                    value += 1
    finally:
        value = value * 2
        LOG.append("outer")
    return value


class OnlyEnters:
    def __enter__(self):
        LOG.append("entered without an exit")


class OnlyExits:
    def __exit__(self, kind, value, traceback):
        LOG.append("exited without an enter")


def with_anything(manager):
    with manager as entered:
        LOG.append(("inside", entered))
    return "done"


def with_ends_the_outer_round(rows):
    # the outer loop never goes round again: its for loop is the inner one, with the
    # with's pop of ``__enter__``'s value (no ``as``) and its clause's way back inside
    for row in rows:
        for item in row:
            with Resource(item):
                LOG.append(item)
        else:
            LOG.append("rows end")
            break
    return len(LOG)


def loop_test_leaves_a_with(items, limit):
    # 3.12+ test again at the end of the round, after the clause, and jump back to
    # the with's exit laid out before it; the else clause raises: the loop's own code
    with Resource("loop"):
        while items and len(items) < limit:
            try:
                item = items.pop()
                if item is None:
                    continue
            except IndexError:
                pass
            else:
                raise KeyError(item)
    return items


def try_returning_in_a_with_raises_after(name, early):
    """A try/finally in a with body whose ``return value`` keeps the value under the
    with's ``__exit__``, and whose end goes on to a raise (control-flow seed 1097 on
    3.12). Taken for the return's copy, the raise was written in the try body, after
    a second copy of the finally body."""
    with Resource(name) as handle:
        try:
            LOG.append(("body", handle))
            if early:
                return handle
        finally:
            LOG.append(("finally", handle))
        raise KeyError(handle)
    return "suppressed"


def returns_from_a_with_in_a_while(bits, names):
    # the with's way out returns; only ``__exit__`` suppressing goes back to the test
    it = iter(bits)
    while next(it) or next(it):
        with Resource(names.pop(), suppress=True) as handle:
            if len(names) % 2:
                raise KeyError(handle)
            return handle
    return None


def returns_from_a_with_in_a_while_in_a_with(bits, names):
    it = iter(bits)
    with Resource("outer"):
        while next(it):
            with Resource(names.pop(), suppress=True) as handle:
                if len(names) % 2:
                    raise KeyError(handle)
                return handle
    return None
def returns_from_a_with_in_a_loop(values, suppress):
    """3.10 writes the code after the with, which only ``__exit__`` suppressing
    reaches, into the handler's last block, inside the loop; the return's copy of
    ``__exit__`` is a way out laid out before the loop's own (3.10, 3.12: read as the
    loop's end, the return was lost)."""
    while values:
        with Resource("round", suppress) as name:
            return 10 / values.pop()
        LOG.append(name)
        if len(values) > 3:
            break
    return "empty"


def returns_from_a_with_in_a_try(value, suppress):
    """3.11+ leave the return's RETURN_VALUE out of the try, and copy the function's
    implicit ``return None`` to where ``__exit__`` suppressing goes on."""
    try:
        with Resource("box", suppress):
            return 10 / value
    except ZeroDivisionError:
        LOG.append("caught")


def breaks_from_a_with_in_a_try_in_a_loop(values, suppress):
    """The code after a with that always breaks, inside a try inside a loop."""
    for value in values:
        try:
            with Resource("box", suppress):
                LOG.append(10 / value)
                break
            LOG.append("suppressed")
        except ZeroDivisionError:
            LOG.append("caught")
    return "done"


def logs_after_a_returning_with_in_a_loop(values, suppress):
    """The code after a with whose body returns, ending a while loop's body: 3.11
    lays it out in the block that repeats the loop's test (read as the next round,
    it was lost)."""
    while values:
        with Resource("round", suppress) as name:
            return 10 / values.pop()
        LOG.append(name)


def logs_after_leaving_withs_in_loops(values, suppress):
    """Code after withs whose bodies continue and break, in a for and a while loop."""
    for value in values:
        with Resource("continues", suppress) as name:
            LOG.append(10 / value)
            continue
        LOG.append(name)
    while values:
        with Resource("breaks", suppress) as name:
            LOG.append(10 / values.pop())
            break
        LOG.append(name)


def returns_from_a_with_under_a_finally(value, suppress):
    """A return inside a with inside a try/finally: the copy of the finally body runs
    after ``__exit__``, before the return, until the try drops it (random seed 259)."""
    with Resource("outer"):
        try:
            with Resource("inner", suppress) as name:
                if value:
                    return 10 / value
                LOG.append(name)
        finally:
            LOG.append("finally")
    return "after"


def returns_a_walrus_from_a_with(values, suppress):
    """``return (name := v)`` in a with: the value waits on the stack while ``__exit__``
    runs, stored in ``name`` first, never in a local of the decompiler's own (random
    seed 700)."""
    with Resource("walrus", suppress):
        while values:
            if values.pop() and values:
                return (last := 10 / values[-1])
    return "after"


def returns_a_walrus_from_a_try(values):
    # the same in a try whose else returns: ``try: return (name := v)``
    try:
        return (last := 10 / values[-1])
    except ZeroDivisionError:
        LOG.append("zero")
    return "after"


CASES = [
    ("returns_a_walrus_from_a_with", ([1, 2, 5], False)),
    ("returns_a_walrus_from_a_with", ([1, 0, 5], True)),
    ("returns_a_walrus_from_a_with", ([0], False)),
    ("returns_a_walrus_from_a_try", ([1, 2],)),
    ("returns_a_walrus_from_a_try", ([0],)),
    ("loop_test_leaves_a_with", ([None, None, 3], 5)),
    ("loop_test_leaves_a_with", ([None], 5)),
    ("loop_test_leaves_a_with", ([1, 2, 3], 2)),
    ("with_ends_the_outer_round", ([["a", "b"], ["c"]],)),
    ("with_ends_the_outer_round", ([[], ["c"]],)),
    ("with_ends_the_outer_round", ([],)),
    ("with_breaks_a_while", (3, False)),
    ("with_breaks_a_while", (1, True)),
    ("with_breaks_a_while", (0, False)),
    ("with_breaks_a_while", (1, False)),
    ("returns_from_a_try_inside_a_with", ({"key": "k"},)),
    ("returns_from_a_try_inside_a_with", ([1],)),
    ("returns_from_a_try_inside_a_with", (5,)),
    ("with_as", ("file",)),
    ("with_without_as", (False,)),
    ("with_without_as", (True,)),
    ("two_items", ("a", "b")),
    ("nested_with", (True,)),
    ("nested_with", (False,)),
    ("with_in_loop", (["a", "skip", "b", "stop", "c"],)),
    ("with_and_try", (True,)),
    ("with_and_try", (False,)),
    ("with_target_unpacking", ()),
    ("while_in_with", (2,)),
    ("returns_from_loop_in_with", (["a", "a"], "a")),
    ("returns_from_loop_in_with", (["a", "b"], "a")),
    ("returns_from_loop_in_with", ([], "")),
    ("breaks_out_of_clauses", (["a", "stop", "b"], "b")),
    ("breaks_out_of_clauses", (["a", "b", "stop"], "b")),
    ("breaks_out_of_clauses", ([], "")),
    ("continue_through_withs", (["a", "skip", "b", "stop", "c"],)),
    ("continue_through_withs", (["skip", "a"],)),
    ("continue_through_withs", ([],)),
    ("returns_on_every_path", (0, False)),
    ("returns_on_every_path", (0, True)),
    ("returns_on_every_path", (1, True)),
    ("returns_on_every_path", (5, True)),
    ("returns_on_every_path_at_the_end", (0, False)),
    ("returns_on_every_path_at_the_end", (0, True)),
    ("returns_on_every_path_at_the_end", (1, True)),
    ("returns_on_every_path_at_the_end", (5, True)),
    ("returns_on_one_path", (0, False)),
    ("returns_on_one_path", (0, True)),
    ("returns_on_one_path", (1, True)),
    ("returns_on_one_path", (5, True)),
    ("returns_on_every_path_in_a_loop", ([0, 1], True)),
    ("returns_on_every_path_in_a_loop", ([0, 0], True)),
    ("returns_on_every_path_in_a_loop", ([5], True)),
    ("returns_on_every_path_in_a_loop", ([0], False)),
    ("nested_withs_end_a_branch", (0,)),
    ("nested_withs_end_a_branch", (2,)),
    ("clause_then_code_in_a_with", ({"key": "k"}, False)),
    ("clause_then_code_in_a_with", ({}, True)),
    ("clause_then_code_in_a_with", ({}, False)),
    ("clause_then_code_in_a_with", ({"key": 1}, True)),
    ("find_definition", (["a", "def 3", "def x", "b"], "def ")),
    ("find_definition", ([], "def ")),
    ("find_definition", ([1], "def ")),
    ("clause_ends_a_with", ({"key": 1},)),
    ("clause_ends_a_with", ({},)),
    ("clause_ends_a_with", (None,)),
    ("value_or_none", ({"K": 1}, "k", False)),
    ("value_or_none", ({}, "k", False)),
    ("value_or_none", ({}, "k", True)),
    ("returns_from_a_with_in_a_try", (False, None)),
    ("returns_from_a_with_in_a_try", (False, 5)),
    ("returns_from_a_with_in_a_try", (True, None)),
    ("returns_from_a_with_in_a_try", (True, 5)),
    ("retries_a_with", (False, None)),
    ("retries_a_with", (False, 5)),
    ("retries_a_with", (True, None)),
    ("retries_a_with", (True, 5)),
    ("returns_then_code_after", (False, None)),
    ("returns_then_code_after", (False, 5)),
    ("returns_then_code_after", (True, None)),
    ("returns_then_code_after", (True, 5)),
    ("returns_at_the_end", (False, None)),
    ("returns_at_the_end", (False, 5)),
    ("returns_at_the_end", (True, None)),
    ("returns_at_the_end", (True, 5)),
    ("returns_in_a_for_loop", (False, None)),
    ("returns_in_a_for_loop", (False, 5)),
    ("returns_in_a_for_loop", (True, None)),
    ("returns_in_a_for_loop", (True, 5)),
    ("returns_under_a_finally", (False, None)),
    ("returns_under_a_finally", (False, 5)),
    ("returns_under_a_finally", (True, None)),
    ("returns_under_a_finally", (True, 5)),
    ("returns_in_an_if", (False, None)),
    ("returns_in_an_if", (False, 5)),
    ("returns_in_an_if", (True, None)),
    ("returns_in_an_if", (True, 5)),
    ("returns_in_a_while_loop", (False, None)),
    ("returns_in_a_while_loop", (False, 5)),
    ("returns_in_a_while_loop", (True, None)),
    ("returns_in_a_while_loop", (True, 5)),
    ("returns_from_nested_withs", (False, None)),
    ("returns_from_nested_withs", (False, 5)),
    ("returns_from_nested_withs", (True, None)),
    ("returns_from_nested_withs", (True, 5)),
    ("copies_unless_fast", (False, None, None)),
    ("copies_unless_fast", (False, 1, None)),
    ("copies_unless_fast", (True, None, None)),
    ("copies_unless_fast", (True, None, 5)),
    ("copies_unless_fast", (False, None, 5)),
    ("copies_unless_fast", (True, 1, 5)),
    ("copies_into", (False, None, None)),
    ("copies_into", (False, 1, None)),
    ("copies_into", (True, None, None)),
    ("copies_into", (True, 1, 5)),
    ("copies_into", (False, 1, 5)),
    ("copies_into", (True, 1, None)),
    ("serves_until_closed", (False, [["a", "b", 0]])),
    ("serves_until_closed", (True, [["a"], [0]])),
    ("serves_until_closed", (False, [["a"], []])),
    ("serves_until_closed", (True, [["a"], []])),
    ("serves_until_empty", ([["a"], [1, 0], [1]],)),
    ("serves_until_empty", ([[1]],)),
    ("reads_until_closed", (False, [[0], [("a",), ("b",)]])),
    ("reads_until_closed", (False, [[("a",), (None,), ("b",)]])),
    ("reads_until_closed", (True, [[(None,)]])),
    ("reads_until_closed", (True, [[("a",)]])),
    ("raises_then_breaks", (True, 5)),
    ("raises_then_breaks", (False, 5)),
    ("raises_then_breaks", (True, 0)),
    ("returns_through_a_finally", (False, 5)),
    ("returns_through_a_finally", (False, None)),
    ("returns_through_a_finally", (True, None)),
    ("returns_early_in_a_with", (False, 5)),
    ("returns_early_in_a_with", (False, 0)),
    ("returns_early_in_a_with", (True, 0)),
    ("loops_after_a_returning_with", (False, [1, 2])),
    ("loops_after_a_returning_with", (True, [None, 2])),
    ("loops_after_a_returning_with", (False, [None])),
    ("tests_after_a_returning_with", (False, 5)),
    ("tests_after_a_returning_with", (True, None)),
    ("tests_after_a_returning_with", (False, None)),
    ("continue_ends_a_with", (7, False)),
    ("continue_ends_a_with", (7, True)),
    ("continue_ends_a_with", (2, False)),
    ("continue_in_a_with_in_a_finally", (9, True)),
    ("continue_in_a_with_in_a_finally", (9, False)),
    ("continue_in_a_with_in_a_finally", (2, False)),
    ("continue_in_a_with_in_a_finally", (4, True)),
    ("with_in_a_finally_in_a_loop", ([1, 2], False)),
    ("with_in_a_finally_in_a_loop", ([1, 0, 2], True)),
    ("with_in_a_finally_in_a_loop", ([1, 0, 2], False)),
    ("with_ends_a_clause", (1, False)),
    ("with_ends_a_clause", (0, True)),
    ("with_ends_a_clause", (0, False)),
    ("returns_from_nested_withs_in_a_clause", (1, False)),
    ("returns_from_nested_withs_in_a_clause", (0, True)),
    ("returns_from_nested_withs_in_a_clause", (0, False)),
    ("returns_through_a_with_and_a_finally", (5, False)),
    ("returns_through_a_with_and_a_finally", (1, False)),
    ("returns_through_a_with_and_a_finally", (None, True)),
    ("returns_through_a_with_and_a_finally", (None, False)),
    ("breaks_through_a_with_and_a_finally", (8, False)),
    ("breaks_through_a_with_and_a_finally", (8, True)),
    ("breaks_through_a_with_and_a_finally", (7, False)),
    ("breaks_through_a_with_and_a_finally", (1, False)),
    ("returns_through_finally_bodies_around_a_with", (1, False)),
    ("returns_through_finally_bodies_around_a_with", (0, True)),
    ("returns_through_finally_bodies_around_a_with", (0, False)),
    # not context managers: the error Python raises (TypeError, 3.10 AttributeError)
    ("with_anything", (Resource("r"),)),
    ("with_anything", (7,)),
    ("with_anything", (OnlyEnters(),)),
    ("with_anything", (OnlyExits(),)),
    ("try_returning_in_a_with_raises_after", ("a", True)),
    ("try_returning_in_a_with_raises_after", ("b", False)),
    ("returns_from_a_with_in_a_while", ([1], ["a", "b"])),
    ("returns_from_a_with_in_a_while", ([0, 1, 1], ["a", "b", "c"])),
    ("returns_from_a_with_in_a_while", ([0, 0], ["a"])),
    ("returns_from_a_with_in_a_while", ([1, 0, 0], ["a", "b"])),
    ("returns_from_a_with_in_a_while_in_a_with", ([1, 1], ["a", "b", "c"])),
    ("returns_from_a_with_in_a_while_in_a_with", ([1, 0], ["a", "b"])),
    ("returns_from_a_with_in_a_while_in_a_with", ([0], [])),
    ("returns_from_a_with_in_a_loop", ([2], False)),
    ("returns_from_a_with_in_a_loop", ([0, 0], True)),
    ("returns_from_a_with_in_a_loop", ([1, 2, 3, 4, 0], True)),
    ("returns_from_a_with_in_a_loop", ([0], False)),
    ("returns_from_a_with_in_a_loop", ([], False)),
    ("returns_from_a_with_in_a_try", (2, False)),
    ("returns_from_a_with_in_a_try", (0, True)),
    ("returns_from_a_with_in_a_try", (0, False)),
    ("breaks_from_a_with_in_a_try_in_a_loop", ([2, 1], False)),
    ("breaks_from_a_with_in_a_try_in_a_loop", ([0, 2], True)),
    ("breaks_from_a_with_in_a_try_in_a_loop", ([0, 0], False)),
    ("breaks_from_a_with_in_a_try_in_a_loop", ([], False)),
    ("logs_after_a_returning_with_in_a_loop", ([2], False)),
    ("logs_after_a_returning_with_in_a_loop", ([0, 0], True)),
    ("logs_after_a_returning_with_in_a_loop", ([2, 0], True)),
    ("logs_after_a_returning_with_in_a_loop", ([0], False)),
    ("logs_after_leaving_withs_in_loops", ([1, 0, 2], True)),
    ("logs_after_leaving_withs_in_loops", ([0, 0], True)),
    ("logs_after_leaving_withs_in_loops", ([1, 2], False)),
    ("logs_after_leaving_withs_in_loops", ([0], False)),
    ("returns_from_a_with_under_a_finally", (2, False)),
    ("returns_from_a_with_under_a_finally", (0, False)),
    ("returns_from_a_with_under_a_finally", ("a", True)),
    ("returns_from_a_with_under_a_finally", ("a", False)),
]
