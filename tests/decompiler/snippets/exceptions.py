"""try/except/else/finally, raise and re-raise, raise from, assert with a message."""

import contextlib
import sys

LOG = []


class AppError(Exception):
    pass


def parse(text):
    try:
        value = int(text)
    except ValueError:
        return "not a number"
    except TypeError as error:
        return f"wrong type: {error}"
    else:
        return value * 2
    finally:
        LOG.append(("parse", text))


def bare_except(x):
    try:
        return 10 // x
    except:  # noqa: E722
        return "failed"


def tuple_of_exceptions(key, mapping):
    try:
        return mapping[key]
    except (KeyError, IndexError) as error:
        return type(error).__name__


def reraise(x):
    try:
        if x < 0:
            raise AppError(f"negative: {x}")
        return x
    except AppError:
        LOG.append("reraising")
        raise


def raise_from(x):
    try:
        return {"a": 1}[x]
    except KeyError as error:
        raise AppError("missing key") from error


def raise_from_none(x):
    try:
        return [1][x]
    except IndexError:
        raise AppError("bad index") from None


def finally_runs(x):
    try:
        if x:
            return "early"
        LOG.append("body")
    finally:
        LOG.append("finally")
    return "late"


def finally_overrides_return(x):
    try:
        return "try"
    finally:
        if x:
            return "finally"  # noqa: B012


def nested_try(a, b):
    try:
        try:
            result = a / b
        except ZeroDivisionError:
            result = float("inf")
            raise ValueError("inner") from None
        finally:
            LOG.append("inner finally")
    except ValueError as error:
        result = str(error)
    return result


def try_in_loop(items):
    total = 0
    for item in items:
        try:
            if item == "stop":
                break
            total += int(item)
        except ValueError:
            continue
        finally:
            LOG.append(item)
    return total


def try_in_while(pairs):
    it = iter(pairs)
    total, found = 0, False
    while found is False:
        try:
            value, found = next(it)
        except StopIteration:
            return -1
        total += value
    return total


def exception_variable_is_cleared(x):
    try:
        raise ValueError(x)
    except ValueError as error:
        message = str(error)
    try:
        error  # noqa: B018
    except NameError:
        return message, "cleared"
    return message, "still bound"


def assert_with_message(x):
    assert x > 0, f"x must be positive, got {x}"
    assert x != 3
    return x


def except_else_finally(x):
    try:
        LOG.append("try")
        value = 1 / x
    except ZeroDivisionError:
        LOG.append("except")
        value = None
    else:
        LOG.append("else")
    finally:
        LOG.append("finally")
    return value


def raise_plain(kind):
    if kind == "class":
        raise KeyError
    if kind == "instance":
        raise KeyError("k")
    raise


def after_the_handler(text):
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        pass
    return sys.exc_info()[0]  # None: no longer handling the ValueError


def handled_in_loop(callbacks):
    details, pending = None, False
    while callbacks:
        callback = callbacks.pop()
        try:
            if callback():
                pending = False
        except:  # its clause is laid out after the code that follows the loop
            details = sys.exc_info()[0]
            pending = True
    if pending:
        return details
    return "settled"


def if_in_try_in_loop(callbacks, arg):
    caught = []
    while callbacks:
        callback = callbacks.pop()
        try:
            if arg is None:
                args = ()
            else:
                args = (arg,)
            if callback(*args):
                arg = None
        except BaseException:
            caught.append(sys.exc_info()[0])
    return caught, arg


def and_in_loop_in_finally(names, table, log):
    try:
        ready = True
        try:
            for name in names:
                if name in table and table[name] == []:  # 3.13: jumps left out of the table
                    log.append(name)
                    del table[name]
        finally:
            for name in names:
                log.append(name.upper())
        return log
    finally:
        log.append(ready)


def else_in_a_branch(size):
    if size is None:
        size = -1
    else:
        try:
            as_index = size.__index__
        except AttributeError:
            raise TypeError(f"{size!r} is not an integer")  # no join after the clause
        else:
            size = as_index()
    if size < 0:
        size = 0
    return size


def clauses_that_return(text, base):
    try:
        number = int(text)
    except ValueError:
        return "not a number"
    if number < 0:
        return "negative"
    try:  # its handler is laid out after the first try's: this code follows that try
        return base / number
    except ZeroDivisionError:
        return "zero"


def found_or_counted(items, key, fast):
    if fast:
        try:
            return items.index(key)
        except ValueError:
            pass
    while key < 3:  # the loop's own test is where both ways in meet
        key += 1
        if key in items:
            raise ValueError(key)
    return key


def clauses_return_inside_finally(x):
    try:
        LOG.append("try")
        y = 10 // x
    except ZeroDivisionError:
        LOG.append("except")
        return "zero"
    else:
        LOG.append("else")
        return y
    finally:
        LOG.append("finally")


def set_default(table, key, value):
    try:
        return table[key]
    except KeyError:
        table[key] = value
    return value  # after the try, not in the clause (3.10 lays it out right after it)


def clause_then_shared_tail(x):
    try:
        LOG.append(10 // x)
    except ZeroDivisionError as error:
        LOG.append(type(error).__name__)
    return len(LOG)  # 3.12 copies this return to the end of the clause


def cached_or_loaded(cache, key, keep):
    try:
        value = cache[key]
    except KeyError:
        value = key.upper()
        if keep:
            cache[key] = value
    return value  # 3.10 copies it to both ends of the clause


def or_in_try_body(arg):
    if arg == "skip":
        return None
    try:
        count = int(arg or 1)  # the or's two ways meet at the call, not past the handler
    except ValueError:
        LOG.append("bad")
        return -1
    return count * 2


def if_in_try_whose_handler_returns(x):
    try:
        if x > 0:
            y = 1
        else:
            y = 2
        z = 10 // x
    except ZeroDivisionError:
        return "zero"
    return y, z


def try_ends_the_round(texts):
    # the try ends the while loop's body: its own end goes on to the next round, as
    # the continue does, and the break through the finally does not
    out = []
    i = 0
    while i < len(texts):
        text = texts[i]
        i += 1
        try:
            if text == "end":
                break
            out.append(int(text))
        except ValueError:
            out.append(None)
            continue
        finally:
            out.append("|")
    out.append(i)
    return out


# An else that ends by going on through a finally body or a with's exit: the compiler
# ends it with the copy of that body, and the else's last statements come after it.
def else_inside_with(text):
    with contextlib.nullcontext():
        try:
            value = int(text)
        except ValueError:
            return "bad"
        else:
            return value * 2


def else_goes_on_in_finally(text):
    try:
        value = int(text)
    except (ValueError, TypeError):
        raise
    else:
        LOG.append(value)
        value += 1
    finally:
        LOG.append("f")
    return value


def else_in_finally_in_loop(items):
    out = []
    for item in items:
        try:
            value = int(item)
        except ValueError:
            continue
        else:
            out.append(value)
        finally:
            LOG.append(item)
    return out


def clause_returns_before_finally(text):
    # written as two trys; 3.12+ compile it as the one try with an else
    try:
        try:
            value = int(text)
        except ValueError:
            return None
        LOG.append(value)
        return value + 1
    finally:
        LOG.append("done")


def raises_by_platform(text, windows):
    # the two raises end alike, but nothing is on the stack but the exception:
    # statements, not ``raise A if windows else B``
    try:
        return int(text)
    except ValueError:
        if windows:
            raise TypeError("not on Windows")
        else:
            raise TypeError("not built here")


def probe_or_false(text):
    # the return inside the try is not covered by it: every way out of the body leaves
    try:
        if int(text) > 2:
            return True
    except ValueError:
        pass
    return False


def restart_unless_parsed(text):
    # both branches of the if end in the same raise, which post-dominators leave out
    if text:
        try:
            number = int(text)
        except ValueError as e:
            LOG.append(str(e)[:7])
            return None
        LOG.append(number)
    raise LookupError("restart")


def count_mismatch(expected, given, defaults):
    # the two branches of the inner if meet only in the raise
    if given != expected:
        if given < expected:
            if defaults[given]:
                return None
            message = f"at least {expected}"
        else:
            message = str(expected)
        raise TypeError(message, given)  # too long for 3.10 to copy into each branch
    return "ok"


def retry_until_found(keys, table):
    # the loop's only way out is the return, left outside the try (3.11+)
    found = iter(keys)
    while True:
        try:
            return table[next(found)]
        except StopIteration:
            return None
        except KeyError:
            pass  # ``continue`` compiles the same here, and reads back as this


def poll_until_answered(answers, verbose):
    # the clause's if meets its else only in the raise: outside the loop, no way on
    while True:
        answer = answers.pop()
        if answer is not None:
            return answer
        try:
            LOG.append(1 / len(answers))
        except ZeroDivisionError as error:
            if verbose:
                LOG.append(str(error))
            raise


class Reader:
    def __init__(self, data):
        self.data = data

    def read(self):
        if isinstance(self.data, Exception):
            raise self.data
        return self.data

    def close(self):
        LOG.append("closed")


def returns_before_an_inner_finally(reader):
    # the if ends before the inner try, not where the except clause meets the body
    try:
        if reader is None:
            return "none"
        try:
            if reader.read():
                return "read"
        finally:
            reader.close()
    except OSError:
        LOG.append("os error")
    LOG.append("after")
    return "fell through"


def loop_in_a_finally_body(items):
    # the try starts at the loop's header and holds the whole loop
    try:
        while items:
            LOG.append(items.pop())
    finally:
        LOG.append("done")
    return items


def retry_in_a_finally_body(texts):
    try:
        while True:
            try:
                value = int(texts.pop())
                break
            except ValueError:
                pass
    finally:
        LOG.append(len(texts))
    return value


def create_unless_present(table, key):
    # the clause goes on to the raise only through its inner try's clause
    try:
        table[key]
    except KeyError:
        try:
            return table.setdefault(key, len(key))
        except TypeError:
            pass
    raise AppError(f"clash on {key!r}")


class Errors:
    Invalid = ValueError


def skip_failures(items):
    # the clause's type is an attribute: the handler is no finally body
    total = 0
    for item in items:
        try:
            if item is None:
                continue
            total += int(item)
        except Errors.Invalid:
            pass
        except TypeError:
            total = -1
    return total


def drain_in_finally(items, skip):
    # a loop with a continue in a finally body: in the copy that runs on an exception
    # it exits to a re-raise, and on 3.10 starts where the handler does
    try:
        LOG.append(items[0])
    finally:
        while items:
            if items[-1] == skip:
                items.pop()
                continue
            LOG.append(items.pop())
    return len(LOG)


class Closable:
    def __init__(self, fail):
        self.fail = fail
        self.state = "open"

    def close(self):
        if self.fail:
            raise self.fail
        self.state = "closed"


def close_then_forget(box, replacement):
    # a bare except in a finally body: the copy that runs on an exception re-raises
    # after it, the normal one returns
    try:
        box.close()
    finally:
        try:
            box.state = replacement()
        except:  # noqa: E722
            box.state = None


def first_match(tests, data, closing):
    # a loop that returns from inside try/finally, the try's last statement: 3.12+
    # lay the return's copy of the finally body out right after the loop (imghdr.what)
    try:
        for test in tests:
            found = test(data)
            if found:
                return found
    finally:
        if closing:
            LOG.append("closed")


def first_item(items, closing):
    try:
        for item in items:
            return item
    finally:
        LOG.append(closing)


def _stat_of(known):
    def stat(path):
        if path not in known:
            raise OSError(path)
        return known[path]

    return stat


def mount_point(stat, path, parent):
    # a return in a nested clause leaves the clause around it too: where it goes is
    # no join of the inner try (posixpath.ismount on 3.11+)
    try:
        inner = stat(path)
    except OSError:
        try:
            inner = stat(parent)
        except OSError:
            return False
    return inner != 0 or inner is None


class Probe:
    known = None


def refresh_seekable(probe, tell):
    # 3.10 copies the small return after the if into the except clause: the clause
    # and the else meet where the original is (_pyio's seekable)
    probe.checked = True
    if probe.known is None:
        try:
            tell()
        except OSError:
            probe.known = False
        else:
            probe.known = True
    return probe.known


def _no_tell():
    raise OSError("not seekable")


def probe_seekable(tell, known):
    probe = Probe()
    probe.known = known
    return refresh_seekable(probe, tell), probe.checked


def listing_start(arg, first, last):
    # 3.13 sends the if's first branch straight past the try body's closing jump:
    # both branches still end the try body (pdb.Pdb.do_list)
    if arg:
        try:
            if "," in arg:
                last = first + int(arg.split(",")[1])
            else:
                first = max(1, int(arg) - 5)
        except ValueError:
            return
    else:
        first = 2
    LOG.append((first, last))


def register_alias(members, value, name):
    # a break that pops the iterator, then leaves the clause: code after the try
    # that ends the function is no return of the loop's (enum._proto_member)
    try:
        member = members[value]
    except TypeError:
        for member in members.values():
            break
    try:
        LOG.append(hash(value) and member)
    except TypeError:
        LOG.append((name, "unhashable"))


def polls_under_a_finally(answers):
    # the clause's return is the only way out of the loop and of the try around it
    try:
        while True:
            try:
                value = int(answers.pop())
            except TypeError:
                LOG.append("gave up")
                return
            LOG.append(value)
    finally:
        LOG.append("done")


def counts_through_finallies(value, early):
    # both finally bodies run once on the way out of the return: the inner one's copy
    # comes before the outer one's
    try:
        try:
            if early:
                return value
        finally:
            value += 1
    finally:
        LOG.append(value)
    return -value


def returns_before_reassigning(value, early):
    # the finally body stores to the name returned: the value, read before it, is
    # kept in a temporary written inside the finally body's copy
    try:
        if early:
            return value
    finally:
        LOG.append("finally")
        value = -1



def pops_both(first, second):
    # a finally body ending in an if: 3.12+ copy its re-raise into each branch
    try:
        if first is not None:
            first.pop()
    finally:
        LOG.append(len(second))
        if second:
            second.pop()


def pops_after_clauses(first, second):
    if second is not None:
        try:
            first.pop()
        except (IndexError, AttributeError):
            LOG.append("caught")
        finally:
            if second:
                second.pop()



def unknown_kind(kind, AssertionError="shadowed"):
    # ``assert False``: the compiler drops the test and raises the builtin, which
    # no name here shadows
    if kind == 1:
        size = 1
    else:
        assert False, f"unknown kind {kind}"
    return size


def all_ints(items, AssertionError="shadowed"):
    # an assert ending a loop body: 3.12+ jump to the next round on its test
    for item in items:
        assert isinstance(item, int)
    return len(items)


def loop_in_try_finally(items, log):
    # a loop inside the try: the end of its body (a continue) stays in the try and runs
    # no copy of the finally body, even where the body reads like that copy
    try:
        while items:
            items.pop()
            log.append(len(items))
    finally:
        log.append(len(items))
    return log


def returns_under_a_finally_with(items, log):
    # the copy of a finally body that ends with a with statement, before a return in an
    # except clause: the with's exit mark comes with it
    x = len(items)
    try:
        if not items:
            raise KeyError(x)
    except KeyError:
        while log:
            if log[-1]:
                return x
            log.pop()
    finally:
        x = x * 2 - 29
        with contextlib.nullcontext(x) as x:
            log.append(x)
    return x


def dead_handler_before_a_loop(first, second, items, log):
    # ``try: pass`` protects nothing, yet 3.11+ keep its handler: code that never runs,
    # whose with exit jumps to the return the live code shares
    if first:
        log.append(1)
    elif second:
        if len(items) > 2:
            try:
                pass
            except KeyError:
                with contextlib.nullcontext():
                    log.append(2)
        else:
            while items:
                log.append(items.pop())
    return ("end", log)


def pass_in_a_finally(items, log):
    # ``if c: pass`` ends the finally body: its test jumps where it falls through
    for x in items:
        try:
            log.append(x)
        finally:
            if log.count(x) and x < 9:
                pass
    return log


def clause_and_else_return_apart(value, fail):
    # the clause returns one value and the code after the inner try another: both
    # end in a copy of one RETURN_VALUE, reached with different values on the stack
    try:
        try:
            if fail:
                raise KeyError(fail)
        except Exception as error:
            return value
        return (value, 13)
    except KeyError:
        pass


class Logged:
    def __enter__(self):
        LOG.append("enter")

    def __exit__(self, *exc_info):
        LOG.append(("exit", exc_info[0]))


def clause_returns_through_finally_in_with(value, fail):
    # the kept value of ``return value`` sits inside the copy of the finally body,
    # which the with's exit follows
    with Logged():
        try:
            if fail:
                raise KeyError(fail)
        except Exception as error:
            return value
        finally:
            LOG.append(value)
            value += 1
    return -value


def returns_what_the_finally_stored(fail):
    # 3.10 copies the finally body and the return after the try to the end of the
    # inner try's else and of its clause: the return, read after the copy, is no
    # return inside the try body
    try:
        try:
            x = 1
            if fail:
                raise KeyError(fail)
        except KeyError:
            LOG.append("caught")
    finally:
        x = 2
    return (x, fail)


def returns_in_try_with_an_else(value):
    # the return ends the try body, which would run on into the else without it
    try:
        if value:
            return
    except KeyError:
        pass
    else:
        raise KeyError(value)


def raises_after_a_try_that_returns(value):
    # the try body's ways out are a return of None and the raise after the try: the
    # raise runs code, so it is where the body ends, no return inside the body
    try:
        if value:
            return
    except (KeyError, ValueError):
        return
    raise KeyError(value)


def returns_through_nested_finallies(early, late):
    # the copy of the innermost finally body on the way to the return is laid out
    # first, where the try body's own end is expected (3.12+)
    try:
        try:
            try:
                if early:
                    return 4
            finally:
                try:
                    LOG.append("inner")
                finally:
                    LOG.append("innermost")
                if late:
                    LOG.append("late")
        finally:
            pass
    finally:
        pass


def finally_that_raises(value, stop):
    # the finally body raises instead of re-raising: it reads like a bare except
    # clause, but its copies on the body's ways out are no else clause
    try:
        while True:
            if stop:
                break
            return value
    except KeyError:
        pass
    else:
        raise ValueError(value)
    finally:
        LOG.append(value)
        raise KeyError(value)


def clause_goes_on_past_a_finally(value):
    # the body's only way out is the dead clause's return; the live clause runs on
    # past the finally body, not to that return (3.12+)
    if value:
        try:
            try:
                raise KeyError(value)
            except Exception:
                pass
            except KeyError:
                return 33
            raise KeyError(35)
        except KeyError:
            pass
        finally:
            LOG.append(43)
        LOG.append(value)
    return ("end", value)


def returns_from_while_true_in_finally(value):
    # 3.10: the finally handler starts at the NOP of its ``while True``, dropped with
    # the exception it was to save
    try:
        value = value + 1
    finally:
        while True:
            return value


def continues_from_a_finally_body(bits):
    # the finally body may continue instead of re-raising, so it reads like a bare
    # except clause: its copy on the way through the body is no part of that try
    bits = list(bits)
    while True:
        LOG.append("round")
        if bits.pop():
            try:
                if bits.pop():
                    return len(bits)
            finally:
                LOG.append("finally")
                if bits.pop():
                    continue


def inner_clause_runs_past_a_return(value, flag):
    # the if's other way is a return; the inner try's clause runs on to the end of
    # the outer try body, not to that return
    try:
        if flag or value > 6:
            return value
        try:
            raise KeyError(value)
        except (KeyError, ValueError) as error:
            pass
    except Exception:
        pass
    if flag is None:
        LOG.append("end")


def returns_inside_then_after_a_finally(value, early):
    # the return in the body keeps its value over the copy of the finally body; the
    # way out laid out after the body is that return's, not the body's end (3.12+)
    try:
        if early:
            return value
    finally:
        LOG.append("finally")
    LOG.append(value)
    return ("end", value)


def loop_runs_out_inside_a_try(items, later):
    """The loop's only break is the code after the inner try, which always raises; the
    loop running out goes on after the outer try. Written as a break and the raising
    code after the loop, an empty else would run that code too."""
    log = []
    try:
        for x in items:
            if x:
                try:
                    log.append(x)
                except KeyError:
                    log.append("caught")
                for y in later:
                    raise LookupError(y)
                raise ValueError(x)
    except LookupError:
        log.append("lookup")
    return log


def asserts_in_a_finally(flag, limit):
    # the finally body's assert ends in a raise of its own, so its walk on an exception
    # is ``if not test: raise AssertionError`` with the re-raise in the else
    try:
        if flag:
            return limit
    finally:
        assert limit != 19, "nineteen"


def asserts_in_a_finally_with_clause(flag, limit):
    log = []
    try:
        log.append(limit // flag)
    except ZeroDivisionError as error:
        log.append(type(error).__name__)
    else:
        if flag > 1:
            return log
    finally:
        assert limit != 19, log
    return log


def returns_from_a_try_in_a_with(value, fail):
    # the try body never ends normally: only the clauses reach where they meet, the
    # code after the try inside the with
    with contextlib.nullcontext(value) as entered:
        try:
            if fail:
                raise fail
            return entered
        except KeyError as error:
            LOG.append(("key", str(error)))
        except ValueError as error:
            LOG.append(("value", str(error)))
        LOG.append("after")
    return ("end", entered)


def try_in_a_finally_body(outer, inner):
    # 3.11+ copy the finally body's re-raise into the inner try's clause and else: it
    # re-raises the exception the finally body runs for, not the clause's
    try:
        if outer:
            raise ValueError("outer")
        LOG.append("body")
    finally:
        try:
            if inner:
                raise KeyError("inner")
            LOG.append("inner body")
        except KeyError as error:
            LOG.append(("inner", str(error)))


def try_with_else_in_a_finally_body(outer, inner, flag):
    # the copies of the finally body's re-raise (and of the return on the normal
    # path) end the inner clause and each branch of the if in its else
    try:
        if outer:
            raise ValueError("outer")
        LOG.append("body")
    finally:
        try:
            if inner:
                raise KeyError("inner")
        except KeyError as error:
            LOG.append(("inner", str(error)))
        else:
            if flag:
                LOG.append("flag")


def try_in_a_finally_body_in_a_loop(items):
    # the normal path's copy of the finally body goes on to the next round from the
    # inner clause, its else and (3.13) the branch of the if in its body
    for item in items:
        try:
            if item == "raise":
                raise ValueError(item)
        finally:
            try:
                if item:
                    LOG.append(item[0])
            except IndexError as error:
                LOG.append(type(error).__name__)


def finally_then_else_after_a_loop(rounds, skip):
    """The loop's test failing goes on to an inner try/finally whose normal end is the
    outer try's else (control-flow seed 1508). Read inside the loop's body, that end
    fell off the round and ran the loop again, and the else's raise was lost."""
    log = []
    try:
        while rounds:
            rounds -= 1
            if skip:
                continue
            return log
        try:
            log.append("body")
        finally:
            log.append("finally")
    except LookupError:
        log.append("caught")
    else:
        log.append("else")
        raise LookupError(len(log))
    log.append("after")
    return log


def code_after_a_try_that_continues(rounds, fail):
    """A try/except body ending in ``if c: continue`` whose clause continues too: the
    body's end goes on to the code after the try, which raises what the clause would
    catch (control-flow seed 629). Read as the continue's other branch, that code ran
    inside the body, under the clause."""
    log = []
    while rounds:
        rounds -= 1
        try:
            log.append(rounds)
            if fail.pop():
                continue
        except KeyError:
            continue
        log.append({0: "last"}[rounds])
    return log


def returns_from_a_clause_under_a_finally(fail, early):
    """Every way out of the finally's body ends the function: the inner clause's
    return, the body's ``return value`` and its end, whose copy of the finally body
    runs on into the code after the try (control-flow seed 1088). Taken for the
    return's copy, that code was written in the body and the finally body ran twice."""
    log = []
    value = "kept"
    try:
        try:
            log.append(fail.pop())
        except IndexError:
            return
        if early:
            return value
    finally:
        log.append("finally")
    log.append("after")
    return ("end", log)


def returns_through_a_finally_ending_in_a_loop(items, fail):
    """The copy of a finally body ending in a loop, before a return: the loop's test
    leaves for the return (random seed 1848). Read with the return inside the loop,
    the copy was not found and the finally body ran twice."""
    log = []
    try:
        log.append(int(fail))
        if fail:
            return log
    except ValueError:
        return "clause"
    finally:
        pending = list(items)
        while pending:
            log.append(pending.pop())
    return ("end", log)


def returns_from_a_try_in_a_loop_in_a_try(items, fail):
    """The return's RETURN_VALUE is left out of both tries, and the outer body, which
    never ends, was taken to end there (control-flow seed 1844). The inner try's walk
    stopped there with the value and went on nowhere: the return was lost and the
    loop ran on."""
    try:
        while items:
            item = items.pop()
            try:
                LOG.append(item)
                if item == fail:
                    return (item, "found")
            except TypeError:
                return "type"
            continue
        raise KeyError(fail)
    except LookupError:
        return "missing"


def returns_under_a_conditional_test_else_raises(flag, pick):
    """An if with a conditional expression as its test, returning, in a try whose else
    raises (random seed 523 on 3.10, which copies the return and the raise to each
    arm's jump): the raise was read into the try body, where the clause caught it."""
    log = []
    try:
        if (pick > 0) if flag else not pick:
            return "returned"
    except LookupError as e:
        log.append(str(e))
    else:
        raise LookupError("else")
    log.append("after")
    return log


def comprehension_in_a_finally_body(items, early, log):
    """A finally body holding a comprehension, with a return in the try body (random
    seed 1974 on 3.12): 3.12+ inline the comprehension, whose list is a temporary of
    each copy's own, so no copy matched the finally body. Read as a bare except and
    an else, the copy before the return ran under that clause."""
    try:
        if early:
            return "early"
        log.append("body")
    finally:
        log.append([item * 2 for item in items])
        log.append(items[0])
    return log


def conditional_test_before_else_and_finally(bits, x, log):
    # 3.10: the test's failing arms jump to the end of the try body, a lone jump on
    # to the else clause, where the if inside the body does not go on
    it = iter(bits)
    try:
        log.append(0)
        if next(it) if x else not next(it):
            log.append(1)
    except StopIteration:
        log.append(2)
    else:
        log.append(3)
    finally:
        log.append(4)
    return log


def returns_from_a_with_in_a_finally_body(fail, bits):
    # on the raising path, the return pops the exception the finally body handles
    # first, outside the with's region, where the if's other way leaves that region
    it = iter(bits)
    try:
        if fail:
            raise KeyError(fail)
    finally:
        with Logged():
            if next(it) or next(it):
                return 38
    return 1


def returns_through_a_with_in_a_finally_body(flag):
    # the return value stays on the stack while the finally body's copy runs the with:
    # it is computed before the with, and the with still binds its target
    try:
        LOG.append(flag)
    except KeyError:
        pass
    else:
        if flag:
            return (flag, 16)
    finally:
        with Logged() as entered:
            LOG.append(entered)
    return None
def raises_in_the_else_of_a_nested_try(first, second, flag):
    """An inner try whose body only returns and whose else raises, inside an outer
    try that never ends normally (random seed 523 on 3.10): both try bodies were
    taken to end at the return, so the else's raise was read into the inner body,
    where its clause caught it."""
    try:
        try:
            if first() if flag else not second():
                return f"a{flag}"
        except Exception:
            pass
        else:
            raise ValueError("g9", [KeyError(9), KeyError(flag)])
    except KeyError:
        pass


class _Noting:
    """A context manager that notes entering and leaving in a log."""

    def __init__(self, log, name):
        self.log, self.name = log, name

    def __enter__(self):
        self.log.append(("enter", self.name))
        return self.name

    def __exit__(self, *exc):
        self.log.append(("exit", self.name))


def raises_after_a_finally_holding_a_lambda(log):
    """A raise after a try/finally whose else holds a with and whose finally body
    makes a lambda, all inside two more try statements (random seed 1451 on 3.10):
    the copy of the finally body on the normal path was not found, and the raise
    after it was read into the finally's body, which then ran the finally twice."""
    try:
        try:
            try:
                pass
            except KeyError:
                pass
            else:
                with _Noting(log, 1), _Noting(log, 2) as name:
                    log.append(name)
            finally:
                log.append((lambda *a, **kw: (a, kw))(1, k=9))
            raise KeyError(59)
        except (ValueError, KeyError):
            pass
    except (ValueError, KeyError) as e:
        log.append(e)


def _yes():
    return True


def _no():
    return False
def finally_copy_shaped_otherwise(flag, value, log):
    """A return in a try body with clauses and a finally body whose if has an empty
    branch (random seed 3200 on 3.10 and 3.12): the copy before the return, its
    branches holding the copied return, matched no reading of the finally body, so
    it was left in an else and the finally body ran twice."""
    try:
        log.append("body")
        return value
    except LookupError:
        pass
    finally:
        if flag:
            pass
        else:
            log.append("finally")
            while len(log) < 3:
                log.append("waited")
    return log


def else_returns_clause_raises(items, log):
    """An inner try whose else returns through an enclosing finally body, and whose
    clause goes on to a raise (random seed 5157 on 3.10): the else stopped at the
    copy of the finally body, and the raise after the inner try was written as if
    the else ran on to it; the return was lost."""
    try:
        try:
            log.append(len(items))
            return 7
        except TypeError:
            pass
        raise LookupError(13)
    finally:
        log.append("finally")


def finally_loop_after_a_return(x, flags, log):
    """A return in a try inside a try with clauses and a finally body ending in a
    loop (random seeds 6697 and 8118 on 3.12): the copy before the return, the return
    copied into the loop, matched no reading of the finally body, which was then read
    as a bare except clause; an exception inside the copy ran it a second time."""
    try:
        try:
            return x + len(log)
        except LookupError:
            pass
    except (TypeError, ValueError):
        pass
    finally:
        log.append(x)
        while flags.pop() or x > 6:
            pass


def finally_ending_in_an_empty_if(flag, value, log):
    """A return in a try body whose finally body ends in an if with nothing in it,
    with code after the try (random seed 4698 on 3.10 and 3.12): the normal path's
    copy of the finally body, followed by that code, was left in the try body, where
    it ran before the finally body ran again."""
    try:
        if flag:
            return "early"
    finally:
        log.append("finally")
        if value > 2:
            pass
    log.append("after")
    return log


def finally_loop_in_a_clause(value, log):
    """A finally body that starts with ``while True`` inside an ``except ... as``
    clause (random seed 7086 on 3.10): its handler starts at the loop's NOP, which
    3.10's reading made the clause's cleanup and normalize then dropped, so the
    function was not decompiled at all."""
    try:
        value.missing
    except AttributeError as e:
        try:
            log.append(value + 1)
        finally:
            while True:
                log.append(str(e)[:4])
                break
    return log


def raises_from_a_clause_in_a_finally(value, other, flag):
    """A try in a finally body whose clause raises only when told: the compiler copies
    the finally body's re-raise into the clause's other branch (random seed 71), which
    written there would re-raise the clause's exception."""
    try:
        LOG.append(10 / value)
    finally:
        try:
            LOG.append(1 / other)
        except ZeroDivisionError as error:
            if flag:
                raise KeyError(str(error))
    return "after"


def asserts_in_a_clause_in_a_finally_in_a_loop(values, limit):
    """The same in a loop, the clause an assert (random seed 217): the walk of the
    normal path's copy leaves the clause's ``if`` an empty else, which the exception
    path's reading has not."""
    while values:
        try:
            LOG.append(10 / values.pop())
        finally:
            try:
                LOG.append(1 / len(values))
            except ZeroDivisionError as error:
                assert limit != 23, str(error)
    return "after"


class _Box:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")

    def __exit__(self, *exc):
        self.log.append("exit")


def returns_from_a_try_finally_in_a_branch(x, flags, log):
    # the returned value is kept while the finally runs: not ``_t1 = x`` in the try
    # and ``return _t1`` after it, a local the function never had (random seed 147)
    with _Box(log):
        if flags[3] and 0 < x <= 3:
            try:
                return x
            finally:
                x += 1
                log.append(x)
    return None, x


def returns_from_a_named_clause_in_a_with(x, fail, log):
    # the way out runs the clause's ``error = None; del error`` and then the with's
    # ``__exit__``: that is the clause's own end, not statements to write (seed 225)
    with _Box(log):
        try:
            if fail:
                raise KeyError(x)
        except KeyError as error:
            x *= 8
            log.append(repr(error))
            return x
    return -x


def returns_through_a_finally_ending_in_an_assert(x, flags, log):
    # the finally body's two copies, one re-raising and one returning, were read as
    # an except clause and an else, the returned value kept in a temporary; 3.12+
    # copy the way out into the assert's arm (random seed 147)
    with _Box(log):
        if flags[0] and 0 < x <= 3:
            try:
                return x
            finally:
                x += 1
                log.append(x)
                assert flags[1] or flags[2]
    return None, x


def asserts_then_logs_in_a_finally(flag, limit):
    # on an exception the walk puts the code after the assert in the else of its
    # ``if``, the re-raise at its end; the normal path's copy has it after the if
    log = []
    try:
        if flag:
            return log
        log.append(flag)
    finally:
        assert limit != 19, log
        log.append(limit)
    return log


def raises_on_its_own_in_a_finally(flag, limit):
    log = []
    try:
        if flag == 1:
            return log
        if flag == 2:
            raise KeyError(flag)
        log.append(flag)
    finally:
        if limit:
            log.append(limit)
            raise TypeError(log)
        log.append(0)
    return log


def returns_after_an_and_in_a_nested_try(flag, limit):
    # 3.12+ copy the clause's end (pop the handled exception, return) to each way out
    # of the inner try's body: no code written after that try, read into it
    log = []
    try:
        log.append(1 // flag)
    except ZeroDivisionError:
        try:
            if limit > 2:
                log.append(limit)
        except TypeError:
            log.append(3)


def asserts_in_a_clause_before_an_else_in_a_finally(a, b):
    # on an exception the walk writes the inner try's else after it, the clause
    # going straight on to the re-raise: read back as the else it is
    log = []
    for i in range(3):
        try:
            log.append(1 // (a - i))
        finally:
            try:
                log.append(1 // (b - i))
            except ZeroDivisionError as error:
                assert a != 2, (log, str(error))
            else:
                if b > i:
                    log.append(b)
    return log


def returns_after_an_else_in_a_finally(a, b):
    # 3.12+ copy the return after the try into the branch of the else's last if
    log = []
    try:
        log.append(1 // a)
    finally:
        try:
            log.append(1 // b)
        except ZeroDivisionError:
            if a == 1:
                raise KeyError(log)
        else:
            if b > 1:
                log.append(b)
    return log


def comprehension_in_a_finally_after_a_return(flag, divisor):
    # 3.12+ inline the comprehension into each copy of the finally body, whose list
    # each walk keeps in a temporary of its own: the copies are the same code
    log = []
    try:
        if flag == 1:
            return 22
        log.append(1 // divisor)
    finally:
        [x for x in log]
    return log


def comprehension_value_in_a_finally_after_a_return(flag, divisor):
    log = []
    try:
        if flag == 1:
            return 22
        log.append(1 // divisor)
    finally:
        log.append([x * 2 for x in log])
    return log


def comprehension_stored_in_a_finally(flag, divisor):
    log = []
    try:
        if flag == 1:
            return log
        log.append(1 // divisor)
    finally:
        doubled = [x * 2 for x in log if x]
        log.append(doubled)
    return log, doubled


def comprehension_in_a_finally_in_a_loop(flag, divisor):
    log = []
    for i in range(3):
        try:
            if flag == i:
                break
            if divisor == i:
                continue
            log.append(1 // (flag - divisor))
        finally:
            log.append([x for x in log if x != i])
    return log


def returns_from_a_named_clause_under_a_finally_in_a_with(x, fail, log):
    # the way out clears ``error``, runs the finally body's copy, then ``__exit__``;
    # ``x`` is a cell, whose value waits on the stack over all three (seed 813)
    def show():
        return x

    with _Box(log):
        try:
            if fail:
                raise KeyError(x)
        except KeyError as error:
            log.append(repr(error))
            if fail > 1:
                return x
        finally:
            log.append(show())
    return -x


CASES = [
    ("returns_from_a_named_clause_under_a_finally_in_a_with", (2, 2, [])),
    ("returns_from_a_named_clause_under_a_finally_in_a_with", (2, 1, [])),
    ("returns_from_a_named_clause_under_a_finally_in_a_with", (2, 0, [])),
    ("returns_through_a_finally_ending_in_an_assert", (2, [1, 1, 0], [])),
    ("returns_through_a_finally_ending_in_an_assert", (2, [1, 0, 1], [])),
    ("returns_through_a_finally_ending_in_an_assert", (2, [1, 0, 0], [])),
    ("returns_through_a_finally_ending_in_an_assert", (7, [1, 0, 0], [])),
    ("returns_from_a_named_clause_in_a_with", (2, True, [])),
    ("returns_from_a_named_clause_in_a_with", (2, False, [])),
    ("returns_from_a_try_finally_in_a_branch", (2, [0, 0, 0, 1], [])),
    ("returns_from_a_try_finally_in_a_branch", (5, [0, 0, 0, 1], [])),
    ("returns_from_a_try_finally_in_a_branch", (2, [1, 1, 0, 1], [])),
    ("finally_loop_in_a_clause", (1, [])), ("finally_loop_in_a_clause", ("x", [])),
    ("finally_ending_in_an_empty_if", (True, 3, [])),
    ("finally_ending_in_an_empty_if", (False, 1, [])),
    ("finally_loop_after_a_return", (1, [0, 1, 1], [])),
    ("finally_loop_after_a_return", (1, [1, 1], [])),
    ("finally_loop_after_a_return", (9, [0, 0], [])),
    ("finally_copy_shaped_otherwise", (True, 1, [])),
    ("finally_copy_shaped_otherwise", (False, 2, [])),
    ("else_returns_clause_raises", ([1], [])), ("else_returns_clause_raises", (None, [])),
    ("loop_runs_out_inside_a_try", ([0, 0], [])), ("loop_runs_out_inside_a_try", ([1], [2])),
    ("loop_runs_out_inside_a_try", ([0, 1], [])),
    ("returns_before_reassigning", (5, True)), ("returns_before_reassigning", (5, False)),
    ("counts_through_finallies", (1, True)), ("counts_through_finallies", (1, False)),
    ("polls_under_a_finally", ([None, 1, "2"],)), ("polls_under_a_finally", ([3],)),
    ("register_alias", ({1: "one"}, 1, "a")), ("register_alias", ({1: "one"}, [], "b")),
    ("register_alias", ({}, [], "c")),
    ("poll_until_answered", ([3, None, None], False)),
    ("poll_until_answered", ([None], True)), ("poll_until_answered", ([None], False)),
    ("retry_until_found", (["a", "b"], {"b": 2})), ("retry_until_found", (["a"], {})),
    ("retry_until_found", ([], {})),
    ("count_mismatch", (2, 2, [0, 0])), ("count_mismatch", (2, 1, [0, 1])),
    ("count_mismatch", (2, 0, [0, 1])), ("count_mismatch", (1, 3, [0])),
    ("restart_unless_parsed", ("12",)), ("restart_unless_parsed", ("x",)),
    ("restart_unless_parsed", ("",)),
    ("probe_or_false", ("5",)), ("probe_or_false", ("1",)), ("probe_or_false", ("x",)),
    ("raises_by_platform", ("1", True)), ("raises_by_platform", ("x", True)),
    ("raises_by_platform", ("x", False)),
    ("parse", ("21",)), ("parse", ("x",)), ("parse", (None,)),
    ("bare_except", (5,)), ("bare_except", (0,)),
    ("tuple_of_exceptions", ("a", {"a": 1})), ("tuple_of_exceptions", ("b", {})),
    ("tuple_of_exceptions", (3, [])),
    ("reraise", (2,)), ("reraise", (-2,)),
    ("raise_from", ("a",)), ("raise_from", ("b",)),
    ("raise_from_none", (0,)), ("raise_from_none", (5,)),
    ("finally_runs", (True,)), ("finally_runs", (False,)),
    ("finally_overrides_return", (True,)), ("finally_overrides_return", (False,)),
    ("nested_try", (1, 2)), ("nested_try", (1, 0)),
    ("try_in_loop", (["1", "x", "2", "stop", "5"],)), ("try_in_loop", ([],)),
    ("try_in_while", ([(1, False), (2, True), (4, False)],)), ("try_in_while", ([(1, False)],)),
    ("exception_variable_is_cleared", ("boom",)),
    ("assert_with_message", (5,)), ("assert_with_message", (-1,)),
    ("assert_with_message", (3,)),
    ("except_else_finally", (2,)), ("except_else_finally", (0,)),
    ("raise_plain", ("class",)), ("raise_plain", ("instance",)), ("raise_plain", ("bare",)),
    ("after_the_handler", ("1",)), ("after_the_handler", ("1.5",)), ("after_the_handler", ("x",)),
    ("handled_in_loop", ([lambda: 1 / 0, lambda: True],)), ("handled_in_loop", ([lambda: 1 / 0],)),
    ("if_in_try_in_loop", ([lambda: True, lambda x: 1 / 0, lambda x: False], 5)),
    ("and_in_loop_in_finally", (["a", "b", "c"], {"a": [], "b": [1]}, [])),
    ("else_in_a_branch", (None,)), ("else_in_a_branch", (3,)), ("else_in_a_branch", ("x",)),
    ("clauses_that_return", ("x", 1)), ("clauses_that_return", ("-1", 1)),
    ("clauses_that_return", ("0", 1)), ("clauses_that_return", ("4", 2)),
    ("found_or_counted", ([5, 7], 7, True)), ("found_or_counted", ([5, 7], 0, True)),
    ("found_or_counted", ([2], 0, False)), ("found_or_counted", ([], 1, False)),
    ("clauses_return_inside_finally", (2,)), ("clauses_return_inside_finally", (0,)),
    ("set_default", ({"a": 1}, "a", 2)), ("set_default", ({}, "a", 2)),
    ("clause_then_shared_tail", (0,)), ("clause_then_shared_tail", (5,)),
    ("cached_or_loaded", ({"a": 1}, "a", True)), ("cached_or_loaded", ({}, "a", True)),
    ("cached_or_loaded", ({}, "a", False)),
    ("or_in_try_body", ("skip",)), ("or_in_try_body", ("",)), ("or_in_try_body", ("x",)),
    ("or_in_try_body", ("4",)),
    ("if_in_try_whose_handler_returns", (2,)), ("if_in_try_whose_handler_returns", (-2,)),
    ("if_in_try_whose_handler_returns", (0,)),
    ("try_ends_the_round", (["1", "x", "2", "end", "3"],)), ("try_ends_the_round", ([],)),
    ("else_inside_with", ("4",)), ("else_inside_with", ("x",)),
    ("else_goes_on_in_finally", ("4",)), ("else_goes_on_in_finally", ("x",)),
    ("else_goes_on_in_finally", (None,)),
    ("else_in_finally_in_loop", (["1", "x", "3"],)), ("else_in_finally_in_loop", ([],)),
    ("clause_returns_before_finally", ("4",)), ("clause_returns_before_finally", ("x",)),
    ("returns_before_an_inner_finally", (None,)),
    ("returns_before_an_inner_finally", (Reader("data"),)),
    ("returns_before_an_inner_finally", (Reader(""),)),
    ("returns_before_an_inner_finally", (Reader(OSError("gone")),)),
    ("returns_before_an_inner_finally", (Reader(KeyError("k")),)),
    ("loop_in_a_finally_body", ([1, 2],)), ("loop_in_a_finally_body", (None,)),
    ("loop_in_a_finally_body", (5,)),
    ("retry_in_a_finally_body", (["3", "x"],)), ("retry_in_a_finally_body", (["x"],)),
    ("retry_in_a_finally_body", ([None],)),
    ("create_unless_present", ({}, "ab")), ("create_unless_present", ({"ab": 1}, "ab")),
    ("create_unless_present", ({}, ["unhashable"])),
    ("skip_failures", (["1", None, "x", "2"],)), ("skip_failures", ([],)),
    ("skip_failures", ([[1]],)),
    ("drain_in_finally", ([1, 2, 3], 2)), ("drain_in_finally", ([], 0)),
    ("close_then_forget", (Closable(None), str)), ("close_then_forget", (Closable(None), None)),
    ("close_then_forget", (Closable(OSError("x")), str)),
    ("close_then_forget", (Closable(OSError("x")), None)),
    ("first_match", ([len, str.upper], "ab", True)), ("first_match", ([len], "", True)),
    ("first_match", ([], "", False)), ("first_match", ([int], "x", True)),
    ("first_item", ([3, 4], "a")), ("first_item", ([], "b")), ("first_item", (5, "c")),
    ("mount_point", (lambda p: p, 1, 2)), ("mount_point", (lambda p: p + 0, "x", 2)),
    ("mount_point", (_stat_of({2: 0}), 1, 2)), ("mount_point", (_stat_of({}), 1, 2)),
    ("probe_seekable", (lambda: 0, None)), ("probe_seekable", (_no_tell, None)),
    ("probe_seekable", (lambda: 0, False)), ("probe_seekable", (_no_tell, True)),
    ("probe_seekable", (int, None)),
    ("listing_start", ("3,4", 1, 0)), ("listing_start", ("9", 1, 0)),
    ("listing_start", ("x", 1, 0)), ("listing_start", ("", 1, 0)),
    ("pops_both", ([1], [2])), ("pops_both", ([], [2])), ("pops_both", (None, [])),
    ("pops_both", ([1], [])), ("pops_both", ([], [])),
    ("pops_after_clauses", ([1], [2])), ("pops_after_clauses", ([], [2])),
    ("pops_after_clauses", (None, [])), ("pops_after_clauses", (3, None)),
    ("pops_after_clauses", ({}, [1])),
    ("unknown_kind", (1,)), ("unknown_kind", (2,)),
    ("all_ints", ([1, 2],)), ("all_ints", ([1, "2"],)),
    ("loop_in_try_finally", ([1, 2], [])), ("loop_in_try_finally", ([], [])),
    ("returns_under_a_finally_with", ([], [0, 1])), ("returns_under_a_finally_with", ([], [0])),
    ("returns_under_a_finally_with", ([3], [1])), ("returns_under_a_finally_with", ([], [])),
    ("dead_handler_before_a_loop", (1, 0, [], [])),
    ("dead_handler_before_a_loop", (0, 1, [1, 2, 3], [])),
    ("dead_handler_before_a_loop", (0, 1, [1, 2], [])),
    ("dead_handler_before_a_loop", (0, 0, [1], [])),
    ("pass_in_a_finally", ([1, 12], [])), ("pass_in_a_finally", ([], [])),
    ("clause_and_else_return_apart", (5, True)), ("clause_and_else_return_apart", (5, False)),
    ("clause_returns_through_finally_in_with", (5, True)),
    ("clause_returns_through_finally_in_with", (5, False)),
    ("returns_what_the_finally_stored", (True,)),
    ("returns_what_the_finally_stored", (False,)),
    ("returns_in_try_with_an_else", (1,)), ("returns_in_try_with_an_else", (0,)),
    ("raises_after_a_try_that_returns", (1,)), ("raises_after_a_try_that_returns", (0,)),
    ("returns_through_nested_finallies", (True, True)),
    ("returns_through_nested_finallies", (True, False)),
    ("returns_through_nested_finallies", (False, True)),
    ("returns_through_nested_finallies", (False, False)),
    ("finally_that_raises", (1, True)), ("finally_that_raises", (1, False)),
    ("clause_goes_on_past_a_finally", (1,)), ("clause_goes_on_past_a_finally", (0,)),
    ("returns_from_while_true_in_finally", (1,)),
    ("returns_from_while_true_in_finally", (None,)),
    ("continues_from_a_finally_body", ([1, 1, 0],)),
    ("continues_from_a_finally_body", ([1, 0, 1],)),
    ("continues_from_a_finally_body", ([0, 1, 1, 0, 1],)),
    ("continues_from_a_finally_body", ([1, 1, 0, 1],)),
    ("inner_clause_runs_past_a_return", (7, False)),
    ("inner_clause_runs_past_a_return", (1, None)),
    ("inner_clause_runs_past_a_return", (1, True)),
    ("returns_inside_then_after_a_finally", (1, True)),
    ("returns_inside_then_after_a_finally", (1, False)),
    ("asserts_in_a_finally", (True, 5)), ("asserts_in_a_finally", (False, 19)),
    ("asserts_in_a_finally", (True, 19)), ("asserts_in_a_finally", (False, 3)),
    ("asserts_in_a_finally_with_clause", (0, 19)),
    ("asserts_in_a_finally_with_clause", (0, 3)),
    ("asserts_in_a_finally_with_clause", (2, 8)),
    ("asserts_in_a_finally_with_clause", (1, 8)),
    ("asserts_in_a_finally_with_clause", (2, 19)),
    ("returns_from_a_try_in_a_with", (1, None)),
    ("returns_from_a_try_in_a_with", (2, KeyError("k"))),
    ("returns_from_a_try_in_a_with", (3, ValueError("v"))),
    ("returns_from_a_try_in_a_with", (4, TypeError("t"))),
    ("try_in_a_finally_body", (True, True)), ("try_in_a_finally_body", (True, False)),
    ("try_in_a_finally_body", (False, True)), ("try_in_a_finally_body", (False, False)),
    ("try_with_else_in_a_finally_body", (True, True, True)),
    ("try_with_else_in_a_finally_body", (True, False, True)),
    ("try_with_else_in_a_finally_body", (False, True, False)),
    ("try_with_else_in_a_finally_body", (False, False, True)),
    ("try_with_else_in_a_finally_body", (False, False, False)),
    ("try_in_a_finally_body_in_a_loop", (["ab", "", "c"],)),
    ("try_in_a_finally_body_in_a_loop", (["ab", "raise", "c"],)),
    ("try_in_a_finally_body_in_a_loop", ([["x"], [], "d"],)),
    ("finally_then_else_after_a_loop", (0, False)),
    ("finally_then_else_after_a_loop", (2, True)),
    ("finally_then_else_after_a_loop", (2, False)),
    ("code_after_a_try_that_continues", (3, [0, 1, 1])),
    ("code_after_a_try_that_continues", (3, [1, 1, 0])),
    ("code_after_a_try_that_continues", (3, [1, 1, 1])),
    ("code_after_a_try_that_continues", (3, [])),
    ("returns_from_a_clause_under_a_finally", ([], True)),
    ("returns_from_a_clause_under_a_finally", ([1], True)),
    ("returns_from_a_clause_under_a_finally", ([1], False)),
    ("returns_through_a_finally_ending_in_a_loop", ([1, 2], "1")),
    ("returns_through_a_finally_ending_in_a_loop", ([1, 2], "")),
    ("returns_through_a_finally_ending_in_a_loop", ([1, 2], "0")),
    ("returns_through_a_finally_ending_in_a_loop", ([], "x")),
    ("returns_from_a_try_in_a_loop_in_a_try", ([1, 2, 3], 2)),
    ("returns_from_a_try_in_a_loop_in_a_try", ([1, 2, 3], 5)),
    ("returns_under_a_conditional_test_else_raises", (True, 1)),
    ("returns_under_a_conditional_test_else_raises", (True, 0)),
    ("returns_under_a_conditional_test_else_raises", (False, 0)),
    ("returns_under_a_conditional_test_else_raises", (False, 1)),
    ("comprehension_in_a_finally_body", ([1, 2], True, [])),
    ("comprehension_in_a_finally_body", ([], True, [])),
    ("comprehension_in_a_finally_body", ([1], False, [])),
    ("comprehension_in_a_finally_body", ([], False, [])),
    ("conditional_test_before_else_and_finally", ([1], True, [])),
    ("conditional_test_before_else_and_finally", ([1], False, [])),
    ("conditional_test_before_else_and_finally", ([0], False, [])),
    ("conditional_test_before_else_and_finally", ([], True, [])),
    ("returns_from_a_with_in_a_finally_body", (0, [1])),
    ("returns_from_a_with_in_a_finally_body", (0, [0, 0])),
    ("returns_from_a_with_in_a_finally_body", ("k", [0, 1])),
    ("returns_from_a_with_in_a_finally_body", ("k", [0, 0])),
    ("returns_from_a_with_in_a_finally_body", ("k", [])),
    ("returns_through_a_with_in_a_finally_body", (1,)),
    ("returns_through_a_with_in_a_finally_body", (0,)),
    ("raises_in_the_else_of_a_nested_try", (_yes, _yes, True)),
    ("raises_in_the_else_of_a_nested_try", (_no, _no, True)),
    ("raises_in_the_else_of_a_nested_try", (_yes, _yes, False)),
    ("raises_in_the_else_of_a_nested_try", (_no, _no, False)),
    ("raises_after_a_finally_holding_a_lambda", ([],)),
    ("raises_from_a_clause_in_a_finally", (2, 1, False)),
    ("raises_from_a_clause_in_a_finally", (2, 0, True)),
    ("raises_from_a_clause_in_a_finally", (2, 0, False)),
    ("raises_from_a_clause_in_a_finally", (0, 0, True)),
    ("raises_from_a_clause_in_a_finally", (0, 0, False)),
    ("raises_from_a_clause_in_a_finally", (0, 1, False)),
    ("asserts_in_a_clause_in_a_finally_in_a_loop", ([1, 2], 0)),
    ("asserts_in_a_clause_in_a_finally_in_a_loop", ([1, 2], 23)),
    ("asserts_in_a_clause_in_a_finally_in_a_loop", ([0, 2], 0)),
    ("asserts_in_a_clause_in_a_finally_in_a_loop", ([2, 0], 23)),
    ("asserts_in_a_clause_in_a_finally_in_a_loop", ([], 0)),
    ("asserts_then_logs_in_a_finally", (0, 3)),
    ("asserts_then_logs_in_a_finally", (1, 3)),
    ("asserts_then_logs_in_a_finally", (0, 19)),
    ("asserts_then_logs_in_a_finally", (1, 19)),
    ("asserts_then_logs_in_a_finally", (2, 0)),
    ("asserts_then_logs_in_a_finally", (2, 5)),
    ("raises_on_its_own_in_a_finally", (0, 3)),
    ("raises_on_its_own_in_a_finally", (1, 3)),
    ("raises_on_its_own_in_a_finally", (0, 19)),
    ("raises_on_its_own_in_a_finally", (1, 19)),
    ("raises_on_its_own_in_a_finally", (2, 0)),
    ("raises_on_its_own_in_a_finally", (2, 5)),
    ("returns_after_an_and_in_a_nested_try", (0, 3)),
    ("returns_after_an_and_in_a_nested_try", (1, 3)),
    ("returns_after_an_and_in_a_nested_try", (0, 19)),
    ("returns_after_an_and_in_a_nested_try", (1, 19)),
    ("returns_after_an_and_in_a_nested_try", (2, 0)),
    ("returns_after_an_and_in_a_nested_try", (2, 5)),
    ("asserts_in_a_clause_before_an_else_in_a_finally", (0, 0)),
    ("asserts_in_a_clause_before_an_else_in_a_finally", (1, 0)),
    ("asserts_in_a_clause_before_an_else_in_a_finally", (2, 1)),
    ("asserts_in_a_clause_before_an_else_in_a_finally", (2, 3)),
    ("asserts_in_a_clause_before_an_else_in_a_finally", (0, 2)),
    ("asserts_in_a_clause_before_an_else_in_a_finally", (5, 5)),
    ("returns_after_an_else_in_a_finally", (0, 0)),
    ("returns_after_an_else_in_a_finally", (1, 0)),
    ("returns_after_an_else_in_a_finally", (2, 1)),
    ("returns_after_an_else_in_a_finally", (2, 3)),
    ("returns_after_an_else_in_a_finally", (0, 2)),
    ("returns_after_an_else_in_a_finally", (5, 5)),
    ("comprehension_in_a_finally_after_a_return", (0, 0)),
    ("comprehension_in_a_finally_after_a_return", (1, 0)),
    ("comprehension_in_a_finally_after_a_return", (2, 1)),
    ("comprehension_in_a_finally_after_a_return", (0, 2)),
    ("comprehension_in_a_finally_after_a_return", (5, 5)),
    ("comprehension_value_in_a_finally_after_a_return", (0, 0)),
    ("comprehension_value_in_a_finally_after_a_return", (1, 0)),
    ("comprehension_value_in_a_finally_after_a_return", (2, 1)),
    ("comprehension_value_in_a_finally_after_a_return", (0, 2)),
    ("comprehension_value_in_a_finally_after_a_return", (5, 5)),
    ("comprehension_stored_in_a_finally", (0, 0)),
    ("comprehension_stored_in_a_finally", (1, 0)),
    ("comprehension_stored_in_a_finally", (2, 1)),
    ("comprehension_stored_in_a_finally", (0, 2)),
    ("comprehension_stored_in_a_finally", (5, 5)),
    ("comprehension_in_a_finally_in_a_loop", (0, 0)),
    ("comprehension_in_a_finally_in_a_loop", (1, 0)),
    ("comprehension_in_a_finally_in_a_loop", (2, 1)),
    ("comprehension_in_a_finally_in_a_loop", (0, 2)),
    ("comprehension_in_a_finally_in_a_loop", (5, 5)),
]
