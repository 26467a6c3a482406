"""A module that ends in a ``while True`` loop: its breaks go to the module's implicit
``return None`` (3.11+ copy it to each, 3.10 to all but the last), which a module
cannot write as a return."""

LOG = []
TAPE = [0, 1, 0, 2, 1, 5, 3, 1]


def logged():
    return LOG


CASES = [("logged", ())]

while True:
    item = TAPE.pop()
    if item == 1 and TAPE:
        LOG.append("one")
        continue
    if item > 2 and len(TAPE) > 3:
        LOG.append(item)
        break
    LOG.append(-item)
    if not TAPE or item == 0:
        break
