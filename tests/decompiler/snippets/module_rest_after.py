"""A module and class bodies that end in a loop or a match statement and then more
statements, where a break or a case ends the body: the compiler copies the body's
implicit ``return None`` there, which no module or class can write (the statements
after it are read back as the loop's else, the one break's, or the last case)."""

LOG = []


def log():
    return LOG, ForElseWith.log, Endless.log, Cases.log


CASES = [("log", ())]


class ForElseWith:
    log = []
    for i in range(3):
        try:
            log.append({}[i] if i == 1 else i)
        except KeyError as e:
            break
        except Exception:
            log.append("no")
    else:
        raise KeyError(3)
    log.append(i)


class Endless:
    log = []
    n = 0
    while True:
        n += 1
        if n > 5:
            break
        try:
            log.append(n)
        except KeyError:
            break
        except OSError as e:
            if (n == 3) if log else not n:
                raise KeyError(n) from None
        log.append(-n)


class Cases:
    log = []
    match str(len(log)):
        case "1":
            log.append(1)
        case "2" if log:
            log.append(2)
        case int(n):
            raise KeyError(n)
        case _:
            log.append("default")
            log.append("rest")


for i in range(4):
    try:
        LOG.append(i)
    finally:
        if i == 2:
            break
    LOG.append(-i)
else:
    LOG.append("ran out")
