"""Try statements with a finally body and ways out of the try body, whose copies of
the finally body the walk reads in shapes of their own: one ending in an if whose
branches leave on their own or go on, where 3.11+ write the way out after the copy
into each branch that goes on (3.10 as the walk of a loop reads it); one that always
returns a value, whose own return ends the copy in place of the body's way out; one
ending in a loop whose returns are the finally body's own; a continue's copy laid
out before the normal path's; one ending in a try, where 3.11+ copy the way out
after it into its else and clauses; one ending in a loop whose break the compiler
writes as the way out, or re-raise, that follows it."""


def way_out_in_the_branches_of_a_finally_if(items, log):
    """``finally: if t: ... else: return log`` after a try body that returns: the way
    out follows the copy only in the branch that goes on, and the copy read as no
    copy sent the function to the state machine. Seed 293."""
    while items:
        x = items.pop()
        try:
            if x == 0:
                return 5
        finally:
            if x > 0:
                log.append(x)
            else:
                return log


def way_out_in_the_branches_of_a_finally_if_after_a_break(items, log):
    """The same shape after a try body that breaks, code after the loop. Seed 293."""
    while items:
        x = items.pop()
        try:
            if x == 0:
                break
        finally:
            if x > 0:
                log.append(x)
            else:
                return log
    log.append("end")
    return log


def way_out_in_the_branches_of_a_finally_if_ending_a_function(items, log):
    """The same shape after a break out of a loop that ends the function: the break
    goes to the function's return, which the compiler copies there. Seed 293."""
    while items:
        x = items.pop()
        try:
            if x == 0:
                break
            log.append(10 // x)
        finally:
            if x > 0:
                log.append(x)
            else:
                return log


def own_return_of_a_finally_after_a_return(flags, log):
    """A finally body that always returns a value that may raise (``return log``),
    after a try body that returns: the compiler drops the body's return after its copy
    of the finally body, whose own return, kept in the body, would run the finally
    body again where it raises; read as no copy, the function went to the state
    machine. Seed 648."""
    try:
        if flags[0]:
            return
        log.append("on")
    finally:
        while len(log) < 3:
            log.append(len(log))
        return log


def returns_inside_a_loop_ending_a_finally(flags, log):
    """A finally body ending in a loop that returns, after a try body that returns:
    the returns inside the copy's loop are the finally body's own, with no copy of it
    before them, and were taken for the try body's. Seed 334."""
    try:
        if flags[0]:
            return len(log)
    finally:
        while len(log) < 3:
            if flags[-1]:
                return len(log)
            log.append(0)
    log.append("after")
    return log


def continue_laid_out_before_the_normal_copy(items, log):
    """``if t: continue`` ending a try body with a finally body, code after the try in
    a loop: the continue's copy of the finally body, laid out right after the body,
    was taken for the body's normal end. Seed 840."""
    for x in items:
        try:
            if x < 0:
                continue
        finally:
            log.append(x)
        log.append(-x)
    return log


def continue_laid_out_before_the_normal_copy_in_a_while(items, log):
    """The same shape in a while loop, the try body raising on one item. Seed 840."""
    while items:
        x = items.pop()
        try:
            log.append(10 // x)
            if x < 0:
                continue
        finally:
            log.append(x)
        log.append(-x)
    return log


def continues_from_an_inner_try_with_the_same_finally(items, log):
    """Continues through two finally bodies alike and through the outer one alone:
    the copies of both, one after the other, are not the copy and the code after
    the try."""
    for x in items:
        try:
            if x < 0:
                continue
            try:
                if x > 5:
                    continue
            finally:
                log.append(x)
        finally:
            log.append(x)
        log.append(-x)
    return log


def continue_copied_into_a_try_ending_a_finally(items, log):
    """A finally body ending in a try with an except clause, after a continue in an
    except clause of the try: 3.11+ copy the continue after the copy of the finally
    body into the inner try's else and its clause, and the copy read as no copy sent
    the function to the state machine. Seed 681."""
    for x in items:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            continue
        finally:
            try:
                log.append(20 // (x - 1))
            except ZeroDivisionError as e:
                log.append(str(e)[:3])
        log.append(-x)
    return log


def return_copied_into_a_try_ending_a_finally(x, log):
    """The same finally body after a return of a value: the value, kept over the copy
    of the finally body, was computed inside the inner try's body (and again in its
    handler) rather than before the try. Seed 298."""
    try:
        if x > 2:
            return len(log)
        log.append(10 // x)
    finally:
        try:
            log.append(20 // (x - 1))
        except ZeroDivisionError:
            log.append("one")
    return log


def break_ending_a_finally_after_a_return(items, log):
    """A finally body ending in a loop with a break, after a try body that returns a
    value: the compiler copies the return to the break in the copy before it, and the
    re-raise to the break in the walk on an exception, which was read as a finally
    body that re-raises inside its loop. Seeds 35, 356."""
    try:
        if len(items) > 3:
            return len(log)
        log.append(10 // len(items))
    finally:
        for x in items:
            if x < 0:
                break
            log.append(x)
    log.append("after")
    return log


def break_ending_a_finally_in_a_loop(items, log):
    """The same in a loop, the try body returning from the function. Seed 356."""
    while items:
        y = items.pop()
        try:
            if y == 0:
                return log
            log.append(10 // y)
        finally:
            for x in range(y):
                log.append(x)
                if x > 1:
                    break
        log.append("round")
    return log


def break_ending_a_finally_ending_a_function(t, log):
    """The same ending the function, whose return the compiler copies to the break on
    the normal path too. Seed 356."""
    try:
        if t:
            return 7
    finally:
        for i in log:
            break


def own_return_of_a_finally_in_a_generator(log):
    """A generator's finally body that always returns a value, after a return in the
    try body: the own return stands for the body's as a plain return. Seed 648's
    shape."""
    try:
        yield 1
        if log:
            return
        yield 2
    finally:
        while len(log) < 2:
            log.append(0)
        return log


def own_return_of_a_name_in_a_loop(items, log):
    """A finally body that always returns a name, after a break: the loop goes round
    once. Seed 648's shape."""
    total = 0
    for x in items:
        try:
            if x < 0:
                break
            total += 10 // x
        finally:
            log.append(total)
            return total


def break_in_a_match_ending_a_finally(items, log):
    """A break from a case of a match inside a loop ending a finally body, after a
    return of a value. Seed 356's shape."""
    try:
        if len(items) > 2:
            return items[0]
    finally:
        while items:
            match items.pop():
                case 0:
                    break
                case n:
                    log.append(n)
    return log


def continue_past_an_inner_finally(items, log):
    """A continue through two finally bodies, code after the outer try: the
    continue's copies of both, laid out first, then the normal path's. Seed 840's
    shape."""
    for x in items:
        try:
            try:
                if x < 0:
                    continue
            finally:
                log.append("inner")
        finally:
            log.append("outer")
        log.append(x)
    return log


CASES = [
    ("way_out_in_the_branches_of_a_finally_if", ([1, 2], [])),
    ("way_out_in_the_branches_of_a_finally_if", ([1, 0, 2], [])),
    ("way_out_in_the_branches_of_a_finally_if", ([-1, 3], [])),
    ("way_out_in_the_branches_of_a_finally_if", ([], [])),
    ("way_out_in_the_branches_of_a_finally_if_after_a_break", ([1, 2], [])),
    ("way_out_in_the_branches_of_a_finally_if_after_a_break", ([1, 0, 2], [])),
    ("way_out_in_the_branches_of_a_finally_if_after_a_break", ([-1, 3], [])),
    ("way_out_in_the_branches_of_a_finally_if_after_a_break", ([], [])),
    ("way_out_in_the_branches_of_a_finally_if_ending_a_function", ([1, 2], [])),
    ("way_out_in_the_branches_of_a_finally_if_ending_a_function", ([1, 0, 2], [])),
    ("way_out_in_the_branches_of_a_finally_if_ending_a_function", ([-1, 3], [])),
    ("way_out_in_the_branches_of_a_finally_if_ending_a_function", ([], [])),
    ("own_return_of_a_finally_after_a_return", ([1], [])),
    ("own_return_of_a_finally_after_a_return", ([0], [])),
    ("own_return_of_a_finally_after_a_return", ([], [])),
    ("own_return_of_a_finally_after_a_return", ([1], [5, 6, 7, 8])),
    ("own_return_of_a_finally_after_a_return", ([0], None)),
    ("returns_inside_a_loop_ending_a_finally", ([1], [])),
    ("returns_inside_a_loop_ending_a_finally", ([0], [])),
    ("returns_inside_a_loop_ending_a_finally", ([1, 0], [])),
    ("returns_inside_a_loop_ending_a_finally", ([0, 0], [1, 2, 3])),
    ("returns_inside_a_loop_ending_a_finally", ([], [])),
    ("returns_inside_a_loop_ending_a_finally", ([0, 1], [1])),
    ("continue_laid_out_before_the_normal_copy", ([1, -2, 3], [])),
    ("continue_laid_out_before_the_normal_copy", ([-1], [])),
    ("continue_laid_out_before_the_normal_copy", ([], [])),
    ("continue_laid_out_before_the_normal_copy_in_a_while", ([1, -2, 3], [])),
    ("continue_laid_out_before_the_normal_copy_in_a_while", ([1, 0, -3], [])),
    ("continue_laid_out_before_the_normal_copy_in_a_while", ([], [])),
    ("continues_from_an_inner_try_with_the_same_finally", ([1, -2, 7, 3], [])),
    ("continues_from_an_inner_try_with_the_same_finally", ([], [])),
    ("continue_copied_into_a_try_ending_a_finally", ([1, 0, 2, 3], [])),
    ("continue_copied_into_a_try_ending_a_finally", ([0], [])),
    ("continue_copied_into_a_try_ending_a_finally", ([], [])),
    ("return_copied_into_a_try_ending_a_finally", (3, [])),
    ("return_copied_into_a_try_ending_a_finally", (1, [])),
    ("return_copied_into_a_try_ending_a_finally", (0, [])),
    ("return_copied_into_a_try_ending_a_finally", (2, [7])),
    ("break_ending_a_finally_after_a_return", ([1, 2, 3, 4], [])),
    ("break_ending_a_finally_after_a_return", ([1, -2, 3, 4], [])),
    ("break_ending_a_finally_after_a_return", ([1, -2], [])),
    ("break_ending_a_finally_after_a_return", ([], [])),
    ("break_ending_a_finally_in_a_loop", ([0, 5, 2], [])),
    ("break_ending_a_finally_in_a_loop", ([1, 4], [])),
    ("break_ending_a_finally_in_a_loop", ([], [])),
    ("break_ending_a_finally_ending_a_function", (True, [])),
    ("break_ending_a_finally_ending_a_function", (False, [1])),
    ("break_ending_a_finally_ending_a_function", (True, None)),
    ("own_return_of_a_finally_in_a_generator", ([],)),
    ("own_return_of_a_finally_in_a_generator", ([1],)),
    ("own_return_of_a_finally_in_a_generator", (None,)),
    ("own_return_of_a_name_in_a_loop", ([2, 3], [])),
    ("own_return_of_a_name_in_a_loop", ([-1, 3], [])),
    ("own_return_of_a_name_in_a_loop", ([0, 3], [])),
    ("own_return_of_a_name_in_a_loop", ([], [])),
    ("break_in_a_match_ending_a_finally", ([1, 0, 3, 4], [])),
    ("break_in_a_match_ending_a_finally", ([1, 2], [])),
    ("break_in_a_match_ending_a_finally", ([0, 5], [])),
    ("break_in_a_match_ending_a_finally", ([], [])),
    ("continue_past_an_inner_finally", ([1, -2, 3], [])),
    ("continue_past_an_inner_finally", ([], [])),
]
