"""A module that ends in a while loop whose body never goes round (each way through
it breaks or raises), with an else: the structured walk reads the loop as an if, its
breaks as the module's returns, which no module may write (seed 11042 on 3.10-3.13;
the rest of the module after that if is the loop's else)."""

LOG = []


def log():
    return LOG, n


CASES = [("log", ())]

n = 0
while len(LOG) < 3:
    if n:
        if not LOG:
            break
        LOG.append(1)
    elif len(LOG) > 5:
        break
    else:
        LOG.append(2)
    n = 1
    try:
        raise KeyError(n)
    except KeyError:
        LOG.append("key")
    break
else:
    LOG.append(3)
