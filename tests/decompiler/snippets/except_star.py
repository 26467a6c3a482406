# requires: 3.11
"""except* over exception groups."""

import contextlib

LOG = []


def split_group(errors):
    try:
        raise ExceptionGroup("many", errors)
    except* ValueError as group:
        LOG.append(("values", [str(e) for e in group.exceptions]))
    except* (KeyError, IndexError) as group:
        LOG.append(("lookups", len(group.exceptions)))
    return "handled"


def partially_handled(errors):
    try:
        raise ExceptionGroup("mixed", errors)
    except* TypeError:
        LOG.append("types")


def star_with_else_finally(fail):
    try:
        if fail:
            raise ExceptionGroup("g", [ValueError("v")])
        LOG.append("ok")
    except* ValueError:
        LOG.append("caught")
    else:
        LOG.append("else")
    finally:
        LOG.append("finally")
    return fail


def naked_exception(x):
    try:
        raise ValueError(x)
    except* ValueError as group:
        seen = type(group).__name__, [str(e) for e in group.exceptions]
    return seen


class Custom(Exception):
    pass


def group(*errors):
    return ExceptionGroup("g", list(errors))


def reraises_and_raises(errors):
    try:
        raise group(*errors)
    except* ValueError:
        raise
    except* KeyError as keys:
        raise TypeError(f"from {len(keys.exceptions)} keys")
    except* Custom:
        pass


def body_starts_with_try(errors):
    try:
        raise group(*errors)
    except* ValueError as values:
        try:
            LOG.append(int(str(values.exceptions[0])))
        except ValueError:
            LOG.append("not a number")
        finally:
            LOG.append("tried")
    return len(LOG)


def body_with_loop(errors):
    found = []
    try:
        raise group(*errors)
    except* (ValueError, KeyError) as caught:
        for error in caught.exceptions:
            if isinstance(error, KeyError):
                continue
            found.append(str(error))
            if len(found) > 1:
                break
        else:
            found.append("all seen")
    return found


def inside_a_loop(batches):
    seen = []
    for batch in batches:
        try:
            if batch:
                raise group(*batch)
            seen.append("empty")
        except* ValueError as values:
            seen.append(len(values.exceptions))
        except* KeyError:
            seen.append("keys")
    return seen


def nested_star(errors):
    try:
        raise group(*errors)
    except* ValueError as outer:
        try:
            raise group(KeyError(len(outer.exceptions)))
        except* KeyError as inner:
            LOG.append(("inner", str(inner.exceptions[0])))
        LOG.append("outer")
    return LOG[-2:]


def inside_a_with(errors):
    import contextlib

    with contextlib.suppress(TypeError):
        try:
            raise group(*errors)
        except* ValueError:
            LOG.append("in with")
    return "after"


def returns_from_the_try(value):
    try:
        if value is None:
            raise group(ValueError("none"))
        return value * 2
    except* ValueError as missing:
        LOG.append(str(missing.exceptions[0]))
    finally:
        LOG.append("done")
    return -1


def type_from_expressions(errors, kinds):
    try:
        raise group(*errors)
    except* kinds[0]:
        LOG.append("first kind")
    except* Custom.__mro__[0] as custom:
        LOG.append(type(custom).__name__)
    return "ok"


def captured_by_a_closure(errors):
    try:
        raise group(*errors)
    except* ValueError as values:
        count = lambda: len(values.exceptions)
        total = count()
    return total


async def awaits_in_a_clause(errors):
    try:
        raise group(*errors)
    except* ValueError as values:
        await _pause()
        LOG.append(len(values.exceptions))
    return "awaited"


async def _pause():
    return None


def yields_in_a_clause(errors):
    try:
        raise group(*errors)
    except* ValueError as values:
        yield len(values.exceptions)
    yield "end"



def details(error):
    """What tests compare of a raised group beyond its type: repr, chaining, traceback."""
    depth, tb = 0, error.__traceback__
    while tb is not None:
        depth, tb = depth + 1, tb.tb_next
    context, cause = error.__context__, error.__cause__
    return repr(error), repr(context), repr(cause), depth


def star_in_finally(fail):
    try:
        if fail:
            raise KeyError(fail)
    finally:
        try:
            raise Custom(1)
        except* Custom as caught:
            LOG.append(repr(caught))
    return 0


def star_in_finally_of_pass(errors):
    """A try body that cannot raise: the compiler's copy of the finally body for
    exceptions is unreachable, its except* handler too."""
    try:
        pass
    finally:
        try:
            LOG.append(len(errors))
            raise group(*errors)
        except* Custom as caught:
            LOG.append(repr(caught))
    return 0


def star_and_finally_with_star(errors):
    """The finally body's copies end the handler's way out (a return, a re-raise),
    which the compiler copies into the clauses too."""
    try:
        LOG.append(len(errors))
        if errors:
            raise group(*errors)
    except* ValueError as values:
        LOG.append(repr(values))
    finally:
        try:
            LOG.append("finally")
            if len(errors) > 1:
                raise group(*errors)
        except* KeyError:
            LOG.append("keys in finally")


def naked_reraised(x):
    try:
        try:
            raise ValueError(x)
        except* ValueError as caught:
            LOG.append(repr(caught))
            raise
    except ExceptionGroup as error:
        return details(error)


def raised_in_clauses(errors):
    try:
        try:
            raise group(*errors)
        except* ValueError:
            raise KeyError("from values")
        except* TypeError as types:
            raise OSError(len(types.exceptions)) from types
        except* Custom:
            raise
    except BaseException as error:
        return details(error), [details(sub) for sub in getattr(error, "exceptions", ())]


def naked_raised_in_clause(x):
    try:
        try:
            raise ValueError(x)
        except* ValueError:
            raise KeyError(x)
    except BaseException as error:
        return details(error)


def loop_around_star(batches):
    seen = []
    for batch in batches:
        if batch is None:
            continue
        try:
            raise group(*batch)
        except* ValueError as values:
            seen.append(len(values.exceptions))
        except* KeyError:
            seen.append("keys")
        if len(seen) > 2:
            break
    else:
        seen.append("all")
    return seen


def star_in_while_with_return(errors):
    count = 0
    while count < 3:
        count += 1
        try:
            if count == 2:
                return count
            raise group(*errors)
        except* ValueError:
            LOG.append(count)
        finally:
            LOG.append("finally")
    return -1


def star_in_try_finally_in_with(errors):
    import contextlib

    with contextlib.suppress(KeyError):
        try:
            try:
                raise group(*errors)
            except* ValueError as values:
                LOG.append(repr(values))
            LOG.append("after the inner try")
        finally:
            LOG.append("outer finally")
    return "out"


def star_in_a_class(errors):
    class Holder:
        try:
            raise group(*errors)
        except* ValueError as values:
            count = len(values.exceptions)
        else:
            count = 0

    return sorted(vars(Holder)), Holder.count


try:
    try:
        raise group(ValueError("module"), KeyError("module"))
    except* ValueError as module_values:
        LOG.append(repr(module_values))
    finally:
        try:
            LOG.append("module finally")
        except* KeyError:
            pass
except* KeyError as module_keys:
    MODULE_KEYS = repr(module_keys)

def loop_in_a_clause(errors):
    # 3.12+ leave the jump back to the loop's header out of the clause body's handler
    seen = []
    try:
        raise ExceptionGroup("g", errors)
    except* ValueError as group:
        items = list(group.exceptions)
        while (item := items.pop()) and items:
            seen.append(item.args[0])
    return seen


def star_in_an_endless_loop(items):
    # the jump back to the header ends the try body, and the handler jumps to it too
    while True:
        try:
            item = items.pop()
            if isinstance(item, Exception):
                raise ExceptionGroup("g", [item])
            LOG.append(item)
        except* ValueError as group:
            LOG.append(len(group.exceptions))


def star_clauses_after_a_return_in_a_with(value, errors):
    # a clause's branch stopping where the clauses meet is no way out of the with body
    with contextlib.nullcontext(value) as entered:
        try:
            if errors:
                raise ExceptionGroup("g", errors)
            return entered
        except* KeyError as group:
            LOG.append(("keys", len(group.exceptions)))
        except* ValueError as group:
            LOG.append(("values", len(group.exceptions)))
        LOG.append("after")
    return ("end", entered)


def asserts_in_a_star_clause_before_an_else_in_a_finally(a, b):
    # the walk on an exception writes the inner try's else after it: read back as
    # the else, the clause going on to the re-raise
    log = []
    for i in range(3):
        try:
            log.append(1 // (a - i))
        finally:
            try:
                log.append(1 // (b - i))
            except* ZeroDivisionError as group:
                assert a != 2, (log, len(group.exceptions))
            else:
                if b > i:
                    log.append(b)
    return log


CASES = [
    ("split_group", ([ValueError("a"), KeyError("b"), ValueError("c")],)),
    ("split_group", ([IndexError(1)],)),
    ("partially_handled", ([TypeError("t"), ValueError("v")],)),
    ("partially_handled", ([TypeError("t")],)),
    ("star_with_else_finally", (True,)), ("star_with_else_finally", (False,)),
    ("naked_exception", ("x",)),
    ("reraises_and_raises", ([ValueError(1)],)),
    ("reraises_and_raises", ([KeyError(1), KeyError(2)],)),
    ("reraises_and_raises", ([Custom(), ValueError(2), KeyError(3)],)),
    ("reraises_and_raises", ([Custom()],)),
    ("body_starts_with_try", ([ValueError("12")],)),
    ("body_starts_with_try", ([ValueError("x"), ValueError("y")],)),
    ("body_starts_with_try", ([TypeError("t")],)),
    ("body_with_loop", ([ValueError(1), KeyError(2), ValueError(3), ValueError(4)],)),
    ("body_with_loop", ([KeyError(2), ValueError(3)],)),
    ("inside_a_loop", ([[], [ValueError(1), ValueError(2)], [KeyError(0), ValueError(1)]],)),
    ("inside_a_loop", ([[TypeError(0)]],)),
    ("nested_star", ([ValueError(1), ValueError(2)],)),
    ("nested_star", ([ValueError(1), TypeError(2)],)),
    ("inside_a_with", ([ValueError(1)],)),
    ("inside_a_with", ([ValueError(1), TypeError(2)],)),
    ("inside_a_with", ([KeyError(1)],)),
    ("returns_from_the_try", (21,)),
    ("returns_from_the_try", (None,)),
    ("type_from_expressions", ([KeyError(1), Custom()], (KeyError,))),
    ("type_from_expressions", ([ValueError(1)], (KeyError,))),
    ("captured_by_a_closure", ([ValueError(1), ValueError(2)],)),
    ("awaits_in_a_clause", ([ValueError(1)],)),
    ("yields_in_a_clause", ([ValueError(1), ValueError(2)],)),
    ("yields_in_a_clause", ([KeyError(1)],)),
    ("star_in_finally", (0,)),
    ("star_in_finally", ("k",)),
    ("star_in_finally_of_pass", ([Custom(1)],)),
    ("star_in_finally_of_pass", ([Custom(1), KeyError(2)],)),
    ("star_and_finally_with_star", ([],)),
    ("star_and_finally_with_star", ([ValueError(1)],)),
    ("star_and_finally_with_star", ([ValueError(1), KeyError(2)],)),
    ("star_and_finally_with_star", ([TypeError(1), KeyError(2)],)),
    ("naked_reraised", ("x",)),
    ("raised_in_clauses", ([ValueError(1)],)),
    ("raised_in_clauses", ([ValueError(1), TypeError(2), Custom(3), KeyError(4)],)),
    ("raised_in_clauses", ([Custom(3)],)),
    ("raised_in_clauses", ([TypeError(2), TypeError(3)],)),
    ("naked_raised_in_clause", ("x",)),
    ("loop_around_star", ([None, [ValueError(1)], [KeyError(1), ValueError(2)], [KeyError(3)]],)),
    ("loop_around_star", ([[ValueError(1)], [TypeError(2)]],)),
    ("star_in_while_with_return", ([ValueError(1)],)),
    ("star_in_while_with_return", ([KeyError(1)],)),
    ("star_in_try_finally_in_with", ([ValueError(1)],)),
    ("star_in_try_finally_in_with", ([ValueError(1), KeyError(2)],)),
    ("star_in_try_finally_in_with", ([TypeError(1)],)),
    ("star_in_a_class", ([ValueError(1), ValueError(2)],)),
    ("star_in_a_class", ([KeyError(1)],)),
    ("loop_in_a_clause", ([ValueError(1), ValueError(2), ValueError(3)],)),
    ("loop_in_a_clause", ([ValueError(1), KeyError(2)],)),
    ("loop_in_a_clause", ([KeyError(1)],)),
    ("star_in_an_endless_loop", ([1, ValueError(2), 3],)),
    ("star_in_an_endless_loop", ([KeyError(1), 2],)),
    ("star_clauses_after_a_return_in_a_with", (1, [])),
    ("star_clauses_after_a_return_in_a_with", (2, [KeyError(1), ValueError(2)])),
    ("star_clauses_after_a_return_in_a_with", (3, [ValueError(2)])),
    ("star_clauses_after_a_return_in_a_with", (4, [TypeError(2), KeyError(1)])),
    ("asserts_in_a_star_clause_before_an_else_in_a_finally", (0, 0)),
    ("asserts_in_a_star_clause_before_an_else_in_a_finally", (1, 0)),
    ("asserts_in_a_star_clause_before_an_else_in_a_finally", (2, 1)),
    ("asserts_in_a_star_clause_before_an_else_in_a_finally", (2, 3)),
    ("asserts_in_a_star_clause_before_an_else_in_a_finally", (0, 2)),
    ("asserts_in_a_star_clause_before_an_else_in_a_finally", (5, 5)),
]
