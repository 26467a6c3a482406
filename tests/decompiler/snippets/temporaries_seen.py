"""Values the walk kept in temporaries (``_t2``) that ``locals()`` or a debugger
would show, in functions it structures:
- a chained comparison in a finally body before code after an enclosing try, whose
  failing pop 3.10 sends to its own copy of the return after that try;
- a conditional expression as an argument, one arm a chained comparison or a boolean
  operation, before a tail that ends the function (a return, or the end of a finally
  body's copy that re-raises), which 3.10 and 3.12+ copy into each arm and into the
  arm's own ends;
- a return through a finally body ending in an if whose branch loops for ever, which
  re-raises only from its other branch, or ending in a loop left by a break (or by a
  compound test), whose copies end with the re-raise or the return at each break;
- a walrus returned through a ``finally: continue``, which drops the returned value;
- (readability) a return in a loop that ends a try/finally or a with body, whose copy
  of the finally body or of ``__exit__`` is the same code as the loop's end runs; a
  break out of a with body in a while loop, whose copy of the return after the loop
  follows the break's ``__exit__`` (context_managers.with_breaks_a_while), beside a
  return written there.
Each reads back as written; one function each, named after the shape, with the seed
it was found on."""


def chain_in_a_finally_before_a_copied_return(x, log):
    """``if c and 0 < x <= 1:`` in a finally body, inside a try whose clause goes on
    to the return: 3.10 sends the first comparison's failing pop to its own copy of
    that return, which the last comparison's failure reaches by a jump (seed 28 on
    3.10)."""
    try:
        try:
            log.append(lambda: x)
        finally:
            if log and 0 < x <= 1:
                x = x * 2 - 32
    except KeyError:
        x = 3
    return ("end", x)


def conditional_chain_argument_in_a_finally(x, log):
    """``log.append(a == f() != 7 if c else d)`` ending a finally body: 3.10 and 3.12+
    copy the call and the end of the body into both arms, and into both ends of the
    chain (seed 1363 on 3.10 and 3.12)."""
    try:
        log.append(x)
    finally:
        log.append(x == len(log) != 7 if x else 5)
    return log


def returns_a_call_of_a_conditional_chain(x, log):
    """``return log.append(a < f() <= b if c else d)``, the chain the other arm too
    (seed 1363's shape outside a finally)."""
    if x > 5:
        return log.append(5 if log else 0 < len(log) <= x)
    return log.append(0 < len(log) <= x if x else 5)


def returns_a_call_of_a_conditional_boolean(x, log):
    """``f(a and b if c else d)`` then a return: the boolean operation's way on is the
    copied tail too (seed 17458)."""
    if x:
        log.append(log and x or "b" if len(log) > 1 else x % 7)
        return x
    return log.append((x or len(log)) if log else 3)


def returns_through_a_finally_ending_in_an_endless_loop(x, log):
    """``return v`` through a finally body ending in ``if c: while True: ...``, left
    only by a raise: the exception's copy re-raises from the if's other branch alone
    (seed 1149 on 3.12 and 3.13, and on 3.10)."""
    try:
        return -x
    finally:
        if log:
            while True:
                log.append(x)
                if len(log) > 3:
                    raise ValueError(len(log))


def returns_through_a_finally_ending_in_a_loop_left_by_a_break(x, log):
    """``return v`` through a finally body ending in ``while True: ... break``: each
    copy of the body has its way out (the re-raise, the return) at the break (seed
    1149 on 3.12 and 3.13)."""
    try:
        return -x
    finally:
        while True:
            log.append(x)
            if len(log) > 2:
                break


def returns_through_a_finally_ending_in_a_loop_of_a_compound_test(x, log):
    """The same with ``while (a or b) and c:``, each way its test fails a copy of the
    way out (seed 17543)."""
    try:
        return -x
    finally:
        while (log or x) and len(log) < 3:
            log.append(x)


def walrus_returned_through_a_finally_continue(x, log):
    """``return (z := v)`` in a try body whose ``finally: continue`` drops the value:
    ``z = _t1 = v``, the temporary never read (seed 17113)."""
    for i in x:
        try:
            if i or log:
                return (z := [i, *log])
        finally:
            continue
    return z


def returns_from_a_for_loop_ending_a_try_finally(xs, log):
    """``return`` in a for loop, the last statement of a try/finally body: its copy of
    the finally body and return is no copy the compiler makes of a break's jump,
    though the same code as the loop's end runs (async_shapes.agen_try_finally)."""
    try:
        for x in xs:
            log.append(x)
            if x:
                return
    finally:
        log.append("finally")


def returns_from_a_while_loop_ending_a_try_finally(xs, log):
    """The same from a while loop (3.11+ still read it as a break: the loop's own
    ways out hold that copy; 3.10 writes a state machine)."""
    try:
        while xs:
            if xs.pop():
                return
    finally:
        log.append("finally")
        log.append(len(xs))


def returns_from_a_for_loop_ending_a_with(xs, log):
    """The same in a with body: the return's copy of ``__exit__``."""
    with open_log(log):
        for x in xs:
            if x:
                return


def breaks_or_returns_from_a_with_in_a_while(xs, log):
    """``break`` from a with body in a while loop, the return after the loop copied
    after the break's ``__exit__`` (3.10, 3.12+), and ``return`` of the same name
    from another with body, which loads it before ``__exit__`` runs."""
    while xs:
        x = xs.pop()
        if x > 2:
            with open_log(log):
                log.append(x)
                return xs
        with open_log(log):
            log.append(-x)
            break
    return xs


class open_log:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")

    def __exit__(self, *exc):
        self.log.append("exit")


CASES = [
    ("chain_in_a_finally_before_a_copied_return", (1, [])),
    ("chain_in_a_finally_before_a_copied_return", (1, [0])),
    ("chain_in_a_finally_before_a_copied_return", (2, [0])),
    ("chain_in_a_finally_before_a_copied_return", (0, [0])),
    ("conditional_chain_argument_in_a_finally", (0, [])),
    ("conditional_chain_argument_in_a_finally", (1, [])),
    ("conditional_chain_argument_in_a_finally", (2, [5])),
    ("conditional_chain_argument_in_a_finally", ("a", [5])),
    ("returns_a_call_of_a_conditional_chain", (6, [])),
    ("returns_a_call_of_a_conditional_chain", (6, [1])),
    ("returns_a_call_of_a_conditional_chain", (1, [1])),
    ("returns_a_call_of_a_conditional_chain", (0, [1])),
    ("returns_a_call_of_a_conditional_chain", (3, [])),
    ("returns_a_call_of_a_conditional_boolean", (1, [])),
    ("returns_a_call_of_a_conditional_boolean", (1, [1, 2])),
    ("returns_a_call_of_a_conditional_boolean", (0, [])),
    ("returns_a_call_of_a_conditional_boolean", (0, [0])),
    ("returns_through_a_finally_ending_in_an_endless_loop", (1, [])),
    ("returns_through_a_finally_ending_in_an_endless_loop", (1, [0])),
    ("returns_through_a_finally_ending_in_an_endless_loop", ("a", [])),
    ("returns_through_a_finally_ending_in_an_endless_loop", ("a", [0])),
    ("returns_through_a_finally_ending_in_a_loop_left_by_a_break", (1, [])),
    ("returns_through_a_finally_ending_in_a_loop_left_by_a_break", ("a", [])),
    ("returns_through_a_finally_ending_in_a_loop_of_a_compound_test", (1, [])),
    ("returns_through_a_finally_ending_in_a_loop_of_a_compound_test", (0, [])),
    ("returns_through_a_finally_ending_in_a_loop_of_a_compound_test", ("a", [1])),
    ("returns_from_a_for_loop_ending_a_try_finally", ([0, 1, 2], [])),
    ("returns_from_a_for_loop_ending_a_try_finally", ([0, 0], [])),
    ("returns_from_a_while_loop_ending_a_try_finally", ([0, 1, 0], [])),
    ("returns_from_a_while_loop_ending_a_try_finally", ([0, 0], [])),
    ("returns_from_a_for_loop_ending_a_with", ([0, 1, 2], [])),
    ("returns_from_a_for_loop_ending_a_with", ([], [])),
    ("breaks_or_returns_from_a_with_in_a_while", ([1, 5], [])),
    ("breaks_or_returns_from_a_with_in_a_while", ([5, 1], [])),
    ("breaks_or_returns_from_a_with_in_a_while", ([], [])),
    ("walrus_returned_through_a_finally_continue", ([0, 1], [])),
    ("walrus_returned_through_a_finally_continue", ([0, 0], [])),
    ("walrus_returned_through_a_finally_continue", ([0], [2])),
]
