# requires: 3.11
"""A match subject the walk once kept in a temporary: a guarded capture first, whose
body defines a function that falls back to the state machine (its try holds a with
that returns and an except* clause), before another case. The state machine names its
own temporaries as the walk names the kept subject; they are that function's own, so
the match reads back as written (seed 6140 on 3.11-3.13)."""


class Box:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self.log

    def __exit__(self, *exc):
        return False


async def guarded_capture_defining_a_falling_back_function(x, log):
    """1c (seed 6140 on 3.11-3.13): the guarded capture's body defines an async
    function whose code the state machine takes, then awaits it."""
    match x * 1:
        case a if a > 3:
            async def g(t, a=""):
                try:
                    with Box(t) as y:
                        return
                    log.append(y)
                except* ValueError as e:
                    log.append(repr(e))
            log.append(await g(log))
        case 0 | 1:
            log.append(x)
    return log


CASES = [
    ("guarded_capture_defining_a_falling_back_function", (5, [])),
    ("guarded_capture_defining_a_falling_back_function", (1, [])),
    ("guarded_capture_defining_a_falling_back_function", (2, [])),
]
