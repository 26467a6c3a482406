"""match statements in a module's own code, the last one ending the module: each case
ends in the module's implicit return, which a module cannot write."""

LOG = []
VALUES = [{"k": 0, "z": 1}, 3]


def logged():
    return LOG


CASES = [("logged", ())]

# a guarded capture after a case keeps the subject in a temporary: a module's own
match VALUES[1]:
    case 4:
        LOG.append("four")
    case a if a in LOG:
        raise ValueError(a)
    case [1, 2]:
        raise KeyError(a)
    case other:
        LOG.append(other)

match VALUES[0]:
    case {"k": 0, **rest}:
        LOG.append(rest)
    case _:
        pass

match VALUES:
    case {"k": 0, **rest}:
        pass
    case _:
        if not LOG:
            LOG.append("empty")
