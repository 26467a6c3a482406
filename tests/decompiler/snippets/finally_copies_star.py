# requires: 3.11
"""Try statements with a finally body ending in ``try ... except*``, whose copy on
the normal path has the code after the try copied into its else."""


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


CASES = [
    ("returns_before_a_star_finally", (True, [])),
    ("returns_before_a_star_finally", (False, [])),
    ("returns_before_a_star_finally", (True, [1, 2, 3])),
    ("returns_before_a_star_finally", (False, [1, 2])),
]
