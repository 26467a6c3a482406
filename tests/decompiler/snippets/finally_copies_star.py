# requires: 3.11
"""Try statements with except* clauses whose copies of the code after them (a
finally body's, a return's) the walks read in shapes of their own."""


class Trouble(Exception):
    pass


def returns_before_a_star_finally(flag, log):
    """A return in the body, the finally body ending in ``try ... except*``, a return
    after the try: the normal path's copy had the return in the inner try's else as
    well as after it, which took a second reading of the finally body, refused where
    the body returns (3.12+). Seed 1231."""
    try:
        if flag:
            return 3
        log.append(1)
    finally:
        try:
            log.append(len(log))
            if len(log) > 3:
                raise Trouble
        except* Trouble:
            log.append("trouble")
    return ("end", log)


def star_try_ends_in_a_copied_return(flag, log):
    """A try inside an if inside a try, both with except* clauses, nothing after
    either: the inner body ends in a copy of the return that ends the outer body,
    which the walk of the inner body reached as the outer one's end and took for a
    way out to it (3.11+). Seed 1245."""
    try:
        if flag:
            try:
                log.append(flag)
                if flag == 2:
                    raise KeyError(flag)
            except* KeyError:
                log.append(1)
                if flag == 3:
                    raise ValueError(flag)
    except* ValueError:
        log.append(2)


CASES = [
    ("returns_before_a_star_finally", (True, [])),
    ("returns_before_a_star_finally", (False, [])),
    ("returns_before_a_star_finally", (True, [1, 2, 3])),
    ("returns_before_a_star_finally", (False, [1, 2])),
    ("star_try_ends_in_a_copied_return", (0, [])),
    ("star_try_ends_in_a_copied_return", (1, [])),
    ("star_try_ends_in_a_copied_return", (2, [])),
    ("star_try_ends_in_a_copied_return", (3, [])),
]
