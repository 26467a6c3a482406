"""A bare ``return`` in a try inside another try's body, both with finally bodies, and
code after the inner try. The return runs a copy of each finally body and returns
None, the same code the way on past the inner try ends with: 3.10-3.13 read that
copy of the end as where the outer body ends, and the return's copy of the inner
finally body as the inner body's end (seed 1372 on 3.13). Each logs the order the
bodies ran in, so a return read as the way on shows."""


def _returns_none_through_two_finally_bodies(log, answers):
    """The shape reduced from seed 1372."""
    try:
        try:
            if answers.pop():
                return
        finally:
            log.append("inner")
        log.append("after")
    finally:
        log.append("outer")


def _deletes_after_a_return_through_two_finally_bodies(log, answers):
    """The same with ``del`` in the inner finally body and after it, as in the seed."""
    i = j = 1
    try:
        try:
            if answers.pop():
                log.append(i)
                return
        finally:
            del i
        del j
        log.append("after")
    finally:
        log.append("outer")


def _returns_in_a_loop_through_two_finally_bodies(log, answers):
    """A return in a loop in the inner try: the loop's iterator popped on the way."""
    try:
        for item in answers:
            try:
                if item:
                    return
            finally:
                log.append(("inner", item))
            log.append(("after", item))
    finally:
        log.append("outer")


def _returns_through_three_finally_bodies(log, answers):
    """Three levels, code after the innermost and the middle try."""
    try:
        try:
            try:
                if answers.pop():
                    return
            finally:
                log.append("inner")
            log.append("after inner")
        finally:
            log.append("middle")
        log.append("after middle")
    finally:
        log.append("outer")


def _returns_none_or_goes_on_past_two_finally_bodies(log, answers):
    """Both ways return None, one written as the end of the function."""
    try:
        try:
            if answers.pop():
                return None
            log.append("body")
        finally:
            log.append("inner")
        log.append("after")
    finally:
        log.append("outer")


def _logged(function, answers):
    log = []
    return function(log, list(answers)), log


def returns_none_through_two_finally_bodies(answers):
    return _logged(_returns_none_through_two_finally_bodies, answers)


def deletes_after_a_return_through_two_finally_bodies(answers):
    return _logged(_deletes_after_a_return_through_two_finally_bodies, answers)


def returns_in_a_loop_through_two_finally_bodies(answers):
    return _logged(_returns_in_a_loop_through_two_finally_bodies, answers)


def returns_through_three_finally_bodies(answers):
    return _logged(_returns_through_three_finally_bodies, answers)


def returns_none_or_goes_on_past_two_finally_bodies(answers):
    return _logged(_returns_none_or_goes_on_past_two_finally_bodies, answers)


CASES = [
    ("returns_none_through_two_finally_bodies", ([1],)),
    ("returns_none_through_two_finally_bodies", ([0],)),
    ("deletes_after_a_return_through_two_finally_bodies", ([1],)),
    ("deletes_after_a_return_through_two_finally_bodies", ([0],)),
    ("returns_in_a_loop_through_two_finally_bodies", ([0, 0, 1, 0],)),
    ("returns_in_a_loop_through_two_finally_bodies", ([0, 0],)),
    ("returns_through_three_finally_bodies", ([1],)),
    ("returns_through_three_finally_bodies", ([0],)),
    ("returns_none_or_goes_on_past_two_finally_bodies", ([1],)),
    ("returns_none_or_goes_on_past_two_finally_bodies", ([0],)),
]
