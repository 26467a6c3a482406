"""A module and a class body that end in a try with an else: 3.10 copies the body's
implicit ``return None`` into the clauses, which come before the else's statements
(a return no module can write: the else is read back as an else)."""

LOG = []


def log():
    return LOG, x, Parsed.value


CASES = [("log", ())]


class Parsed:
    try:
        value = int("12")
    except ValueError as error:
        value = str(error)
    else:
        if value > 1:
            LOG.append(value)
        LOG.append("class end")


try:
    x = int("12")
except ValueError as e:
    LOG.append(str(e))
    x = 0
else:
    if x > 1:
        LOG.append(x)
    LOG.append("end")
