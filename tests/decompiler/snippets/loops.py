"""while and for, with else, break and continue, nested loops, returns inside loops."""


def count_down(n):
    out = []
    while n > 0:
        out.append(n)
        n -= 1
    return out


def while_else(n, stop):
    i = 0
    while i < n:
        if i == stop:
            result = "broke"
            break
        i += 1
    else:
        result = "finished"
    return result, i


def for_else(items, wanted):
    for index, item in enumerate(items):
        if item == wanted:
            break
    else:
        return -1
    return index


def skip_odd(items):
    total = 0
    for item in items:
        if item % 2:
            continue
        total += item
    return total


def while_true_break(limit):
    steps = 0
    while True:
        steps += 1
        if steps * steps > limit:
            break
    return steps


def nested_loops(rows, cols):
    pairs = []
    for r in range(rows):
        for c in range(cols):
            if c > r:
                break
            if (r + c) % 3 == 0:
                continue
            pairs.append((r, c))
        else:
            pairs.append("full row")
    return pairs


def return_from_loop(items, target):
    for item in items:
        while item > 0:
            if item == target:
                return "found", item
            item //= 2
    return "missing", None


def loop_unpacking(mapping):
    out = []
    for key, (low, high) in sorted(mapping.items()):
        out.append(f"{key}:{high - low}")
    return out


def while_with_complex_condition(a, b):
    steps = []
    while a > 0 and (b > 0 or a % 2 == 0):
        steps.append((a, b))
        a -= 1
        b -= 2
    return steps


def continue_in_while(n):
    seen = []
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        seen.append(i)
    else:
        seen.append("done")
    return seen


def loop_over_string(text):
    vowels = 0
    for ch in text:
        if ch in "aeiou":
            vowels += 1
        elif ch == "!":
            break
    return vowels


def for_with_target_attribute(values):
    class Box:
        pass

    box = Box()
    for box.value in values:
        pass
    return getattr(box, "value", None)


def continue_else_break(items, limit):
    i = 0
    while i < limit:
        item = items[i]
        i += 1
        if item > 0:
            items.append(item)
            continue
        break
    items[0] = i


def break_when_empty(chunks):
    out = []
    while True:
        chunk = chunks.pop()
        if not chunk:
            break
        out.append(chunk)
    out.reverse()  # more than a copied return after the loop
    return out


def break_at_end(pairs, wanted):
    found = None
    for key, value in pairs:
        if key == wanted:
            found = value
            break
    found = [found, wanted]  # more than a copied return after the loop
    return found


def shadowed_next(iterables):
    out = []
    for it in map(iter, iterables):
        try:
            while True:
                next = it.__next__  # a local named like the builtin the decompiler may call
                out.append(next())
        except StopIteration:
            out.append("end")
    return out


def loop_then_try(n, mapping):
    i = n
    total = 0
    while i > 0:
        i -= 1
        total += i
    try:
        total += mapping[i]
    except KeyError:
        total -= 1
    return total


def raise_inside_for(chain, steps):
    try:
        link = chain
        for _ in range(steps):
            link = link.get("next")
            if link is None:
                raise ValueError  # 3.12+ lay this block out after the loop
    except ValueError:
        return "too deep"
    return link["name"]


def missing_method(classes, names):
    for name in names:
        for cls in classes:
            if name in cls:
                if cls[name] is None:
                    return "blocked", name  # 3.12+: a return inside both loops
                break  # 3.12+: pops the inner iterator and goes on with the outer loop
        else:
            return "missing", name
    return "ok", None


def prefixes(words, known):
    found = {}
    clashes = []
    for word in words:
        fragment = word
        while fragment:  # 3.12+: every way out jumps straight to the for loop's header
            if fragment in known:
                clashes.append(fragment)
                break
            found[fragment] = word
            fragment = fragment[:-1]
    return found, clashes


def for_in_while(rows, stop):
    out = []
    i = 0
    while i < len(rows):
        i += 1
        for cell in rows[i - 1]:
            if cell == stop:
                out.append("stop")
                break  # leaves the for loop only: the while loop goes on
            out.append(cell)
    return out


def first_words(lines):
    it = iter(lines)
    out = []
    while line := next(it, None):  # 3.12+: the test is repeated at the body's end
        words = line.split()
        if not words:
            continue  # jumps to the test at the top
        out.append(words[0])
    return out


def prune(path, fail, removed):
    head, tail = path[:-1], path[-1:]
    while head and tail:  # 3.12+: every way out is a copy of the return
        try:
            if head[-1] == fail:
                raise OSError(fail)
            removed.append(head[-1])
        except OSError:
            break
        head, tail = head[:-1], head[-1:]


def drop_flags(argv):
    level = 0
    while argv[1:] and argv[1] == "-d":
        level += 1
        del argv[1]
    return level


def declared(classes, names):
    for name in names:
        for cls in classes:
            if name in cls:
                if cls[name] is None:
                    return "blocked", name
                break  # 3.12+: laid out inside the inner loop's extent, off its body
            notes = cls.get("notes", ())
            if isinstance(notes, tuple) and name in notes:
                break
        else:
            return "missing", name
    return "ok", None


def while_else_in_for(rows, limit):
    # the else clause's continue and break belong to the for loop around it
    out = []
    for row in rows:
        i = 0
        while i < len(row):
            if row[i] > limit:
                out.append(("over", i))
                break
            i += 1
        else:
            if not row:
                continue
            if row[-1] == limit:
                break
            out.append("fits")
        out.append(len(row))
    out.append("end")  # more than a copied return after the loop
    return out


def while_else_returns(n, stop):
    i = 0
    while i < n:
        i += 1
        if i % 4 == stop:
            continue
        if i == stop * 3:
            break
    else:
        return "ran out", i
    i = -i  # more than a copied return after the loop
    return "stopped", i


def while_else_compound_test(a, b):
    steps = 0
    while a > 0 and b > 0:
        a -= 1
        b -= 2
        steps += 1
        if steps > 5:
            break
    else:
        steps = -steps
    steps += 100  # more than a copied return after the loop
    return steps, a, b


def nested_while_else(grid, wanted):
    found = []
    r = 0
    while r < len(grid):
        c = 0
        while c < len(grid[r]):
            if grid[r][c] == wanted:
                found.append((r, c))
                break
            c += 1
        else:
            found.append(r)
        r += 1
        if len(found) > 3:
            break
    else:
        found.append("all rows")
    found.append("end")  # more than a copied return after the loop
    return found


def while_true_returns(limit):
    # a return written in the loop, not a break's copy of the code after it
    steps = 0
    while True:
        steps += 1
        if steps * steps > limit:
            return steps


def while_returns_what_follows(n, stop):
    # the return in the loop computes what the code after the loop does
    i = 0
    while i < n:
        if i == stop:
            return i
        i += 1
    return i


def while_true_break_in_for(rows, limit):
    for row in rows:
        total = 0
        while True:
            total += len(row) + 1
            if total > limit:
                break
        row.append(total)
    return rows


def while_true_break_raises(limit):
    steps = 0
    while True:
        steps += 2
        if steps > limit:
            break
    raise ValueError(steps)


def for_returns_constant(items, wanted):
    # 3.10 pops the iterator before loading a constant to return, as a break's copy does
    for item in items:
        if item == wanted:
            return -1
        if item is None:
            return
    return len(items)


def for_else_break_raises(items, wanted):
    for item in items:
        if item == wanted:
            break
    else:
        return None
    raise LookupError(item)


def else_break_at_the_end(text, stop):
    # the break is the else the test jumps to, not what it falls through to
    i = 0
    while True:
        ch = text[i]
        if ch == "#":
            i += 2
        elif not stop(ch):
            i += 1
        else:
            break
    return i


def else_break_in_a_tested_loop(text, stop):
    i = 0
    while i < len(text):
        ch = text[i]
        if not stop(ch):
            i += 1
        else:
            break
    return i


def first_entry(table):
    for key in table:  # never goes back to the loop's header: no back edge at all
        value = table[key]
        del table[key]
        return key, value
    raise KeyError("empty")


def first_or_none(items):
    for item in items:
        break
    else:
        return None
    return item


def reap_until_below(results, limit):
    # one clause goes on to the next round, the other breaks
    done = []
    while len(results) > limit:
        try:
            done.append(int(results.pop()))
        except ValueError:
            done.append("bad")
        except TypeError:
            break
    done.append("end")
    return done


def read_until_data(blocks, fresh):
    # the clause breaks out of a try that one branch of an if holds
    data = None
    while True:
        if fresh:
            try:
                data = int(blocks.pop())
            except ValueError:
                break
        else:
            data = blocks.pop()
        if data:
            break
    return data


def note_first_unusual(xs, default, seen):
    # a value-level ``or`` just before a break that the function's end is copied to
    for x in xs:
        if x is None:
            pass
        elif isinstance(x, int):
            pass
        else:
            seen.append(default or x)
            break


def open_each(names, opened):
    # one branch of an if holds a try whose clause continues
    for name in names:
        if name == "-":
            pass
        else:
            try:
                handle = int(name)
            except ValueError:
                continue
        opened.append(handle if name != "-" else "stdin")


def next_header(headers):
    # the clauses' ways out: a break written after the try, and a continue
    while True:
        try:
            header = int(headers.pop())
        except ValueError:
            header = None
        except TypeError:
            continue
        break
    return header


def page_until_quit(lines, keys):
    # the loop test slices, so its repeat at the end of the body is a whole condition
    shown = []
    while lines[len(shown):]:
        key = keys.pop()
        if key in ("q", "Q"):
            shown.append("quit")
        else:
            shown.append(key)
            continue
        shown.append(len(shown))
    return shown


def first_heap_type(classes, flagged):
    # two breaks, each popping the iterator; the last falls into the code after the loop
    for cls in classes:
        if hasattr(cls, "__flags__") and cls in flagged:
            break
        if isinstance(cls, type) and cls.__name__ == "int":
            break
    return cls


def first_checked(items):
    # every round breaks
    for item in items:
        if not isinstance(item, int):
            break
        else:
            break
    return item


def defaults_for(names, given, defaults):
    # a continue inside an except clause, one branch of an if chain, where the clause
    # and the body meet at the next round
    out = []
    for name in names:
        try:
            out.append(given[name])
        except KeyError:
            if name in defaults:
                value = defaults[name]
            elif name.startswith("*"):
                value = ()
            else:
                continue
            out.append(value)
    return out


def members_found(names, bases, lookup):
    # a clause's for/else: the for breaks on to the code after the try, its else
    # continues the outer loop (inspect._getmembers)
    found = []
    for name in names:
        try:
            found.append(lookup[name])
        except KeyError:
            for base in bases:
                if name in base:
                    found.append(base[name])
                    break
            else:
                continue
        found.append(name)
    return found


def settle_line(chunks, keepends):
    # while True left only by an if that holds two ifs and then breaks: nothing
    # follows the loop, so the way out never comes back to the header and the two
    # ifs meet outside the loop's body (codecs.StreamReader.readline)
    state = []
    while True:
        chunk = chunks.pop()
        if chunk:
            if len(chunk) > 1:
                state.append(chunk[0])
            if not keepends:
                state.append(chunk.strip())
            break
        state.append("empty")


def final_number(parts, strict):
    # the clause's if returns on one path and comes round again on the other: its
    # branches meet outside the loop's body, which every way out leaves by a return
    # (ntpath._getfinalpathname_nonstrict)
    while parts:
        text = parts.pop()
        try:
            return int(text)
        except ValueError:
            if text != text.strip():
                return text.strip() + "?" if strict else text.strip()


def first_usable(folders, tries):
    # breaks of an inner loop, in except clauses, that nothing follows in the outer
    # loop: 3.12+ send them straight to the outer loop's next round (tempfile)
    for folder in folders:
        for attempt in range(3):
            try:
                return tries[folder][attempt]()
            except FileExistsError:
                pass
            except PermissionError:
                break
            except LookupError:
                break
    return None


def _fails(error):
    def attempt():
        raise error

    return attempt


def find_caller(frames, skip):
    # the rest of a round that only breaks: left out of the natural loop, it is no
    # code after the loop (logging.Logger.findCaller on 3.10)
    info = None
    while frames:
        frame = frames.pop()
        if frame in skip:
            continue
        if frame.endswith("\n"):
            info = frame[:-1]
        break
    return info


def continue_under_a_negated_and(t, x, log):
    # 3.12+ repeat ``not (a and b)`` at the end of the body with each jump into the
    # body inverted into a jump over a jump back: still the loop's own test
    while not (t.pop() and x):
        if t.pop():
            continue
        log.append(len(t))
    return log


class Bits:
    def __init__(self, bits):
        self.bits = list(bits)

    def c(self):
        return self.bits.pop(0)


def raises_after_a_try_that_continues(bits):
    # the try body's ways out are the continue and the raise after the try: the
    # raise runs code, so it is where the body ends
    t = Bits(bits)
    try:
        while t.c():
            try:
                if t.c():
                    continue
            except KeyError:
                continue
            raise KeyError("after the try")
    except IndexError as error:
        pass


def raises_after_an_empty_if_in_a_try(bits):
    # 3.10 copies the raise after the try to both ways out of the if: a copy of
    # where the body ends ends it too
    t = Bits(bits)
    try:
        while not t.c():
            try:
                if t.c():
                    pass
            except KeyError:
                continue
            raise KeyError("after the try")
    except IndexError as error:
        pass


def endless_loop_ends_a_for_body(rows, log):
    # 3.12+ send the inner loop's break straight to the for loop's next round, and
    # lay that jump out among the inner loop's blocks
    while rows:
        row = rows.pop()
        for x in row:
            while True:
                log.append(x)
                x -= 1
                if x < 0:
                    break
    return log


def endless_loop_ends_a_clause(bits, log):
    # 3.13 lays the end of the except clause, where the break goes, among the
    # loop's blocks
    t = Bits(bits)
    try:
        if t.c():
            raise KeyError("into the clause")
    except KeyError as error:
        while True:
            if t.c():
                log.append(len(t.bits))
            elif t.c():
                break
    finally:
        log.append("finally")
    return log


def endless_loops_end_a_clause(bits, log):
    # the return inside leaves the loops too, but goes nowhere on
    t = Bits(bits)
    try:
        if t.c():
            raise KeyError("into the clause")
    except KeyError as error:
        while True:
            log.append("round")
            while not t.c():
                if not t.c():
                    return log
                log.append(len(t.bits))
            if not t.c():
                break
    finally:
        log.append("finally")
    return log


def endless_loop_ends_a_try_body(bits, x, log):
    # 3.12+ lay the break, a jump to where the try statement ends, among the loop's
    # blocks, and the code after the try is a return
    t = Bits(bits)
    try:
        while True:
            log.append(len(t.bits))
            if t.c() and 0 < x <= 4:
                break
    except IndexError:
        log.append("empty")



def chained_test_in_a_try(rows, limit):
    # the test's copy at the end of the round keeps ``len(row)`` between its two
    # comparisons, and the ends of the chain are laid out between the test and the body
    found = []
    for row in rows:
        try:
            while 0 < len(row) <= limit:
                found.append(row.pop())
        except AttributeError:
            found.append("fixed")
    return found


def continue_under_a_chained_test(items, low, high):
    # a continue jumps back to the test, whose chained comparison's way out is laid
    # out before the body: the test's own, not a break's copy of the code after the
    # loop (seed 73)
    i = 0
    while i < len(items) and low < items[i] <= high:
        i += 1
        if items[i - 1] % 2:
            continue
        items[i - 1] = 0
    return i, items


def finally_breaks_a_for(items, log):
    # the finally body's break leaves from the handler too, popping the iterator, and
    # goes where the loop ends, which has no else clause (seed 50)
    for item in items:
        try:
            log.append(item)
            if item is None:
                raise KeyError(item)
        finally:
            break
    log.append("after")
    log.append(len(log))
    return log


def breaks_from_a_try_else_under_an_or(items, log):
    # a test of two parts leaves from its second; the else clause's break, laid out
    # before that, goes on there too: not where the loop goes on (seed 65)
    if log is not None:
        while items.pop() or len(items) > 2:
            try:
                value = 10 // items[-1]
            except ZeroDivisionError:
                log.append("zero")
            else:
                log.append(value)
                break
        log.append("after")
    return log


def clause_breaks_past_the_else(values, log):
    # 3.12+ lay the except clause out after the loop: its break goes past the else
    # clause, a way out that the loop's own blocks do not show (seed 173)
    while values:
        try:
            log.append(10 // values.pop())
        except ZeroDivisionError:
            if log:
                break
    else:
        log.append("ran out")
    log.append("after")
    return log


def clause_returns_from_an_endless_loop(items, ops):
    # the endless loop's only ways out are its except clauses: the one that returns
    # is the inner loop's own code, no break out of the for loop around it
    for x in items:
        if x > 0 and ops:
            while True:
                try:
                    _step(ops)
                except KeyError:
                    return x
                except ValueError:
                    pass
    return None


def _step(ops):
    op = ops.pop()
    if op == "k":
        raise KeyError(op)
    if op == "v":
        raise ValueError(op)


def conditional_test_continues(bits, x, log):
    # the loop's test is a conditional expression: 3.12+ repeat it at the end of the
    # body with an extra jump out, 3.10 and 3.11 with one arm's jumps swapped
    it = iter(bits)
    while next(it) if x else not next(it):
        if not (next(it) and x):
            log.append(1)
            continue
        log.append(2)
    return log


def while_else_ends_a_for_body(rows, log):
    # 3.12+ send the break straight to the for loop's next round, past the else
    for row in rows:
        while row:
            if row.pop() < 0:
                log.append("neg")
                break
        else:
            log.append("empty")
    return log


def while_else_with_or_ends_a_for_body(rows, log):
    for row in rows:
        while row or log == ["stop"]:
            if not row:
                log.append("stopped")
                break
            if row.pop() < 0:
                log.append("neg")
                break
        else:
            if len(log) > 2:
                log.append("long")
    return log


def endless_loop_returns_from_a_for_body(rows, flag):
    # the if that returns is the for loop's own code, laid out past the endless loop
    while True:
        for i, row in enumerate(rows):
            if row if flag else not row:
                rows.append(i)
                return i, len(rows)
        flag = not flag
        if not rows or len(rows) > 3:
            return None


CASES = [
    ("chained_test_in_a_try", ([[1, 2], (3,), [], [4, 5, 6]], 2)),
    ("chained_test_in_a_try", ([[1, 2, 3]], 5)),
    ("count_down", (3,)), ("count_down", (0,)),
    ("while_else", (5, 2)), ("while_else", (5, 9)), ("while_else", (0, 0)),
    ("for_else", ([1, 2, 3], 2)), ("for_else", ([1, 2, 3], 7)), ("for_else", ([], 1)),
    ("skip_odd", (range(10),)), ("skip_odd", ([],)),
    ("while_true_break", (50,)), ("while_true_break", (0,)),
    ("nested_loops", (4, 3)), ("nested_loops", (0, 2)),
    ("return_from_loop", ([8, 12], 3)), ("return_from_loop", ([8, 12], 6)),
    ("return_from_loop", ([], 1)),
    ("loop_unpacking", ({"b": (1, 5), "a": (2, 3)},)),
    ("while_with_complex_condition", (6, 3)), ("while_with_complex_condition", (4, -1)),
    ("continue_in_while", (7,)), ("continue_in_while", (0,)),
    ("loop_over_string", ("education!aaa",)), ("loop_over_string", ("xyz",)),
    ("for_with_target_attribute", ([1, 2, 3],)), ("for_with_target_attribute", ([],)),
    ("continue_else_break", ([1, 2, 0, 3], 4)), ("continue_else_break", ([1], 1)),
    ("break_when_empty", ([[], [1], [2]],)), ("break_when_empty", ([[]],)),
    ("break_at_end", ([(1, "a"), (2, "b")], 2)), ("break_at_end", ([(1, "a")], 3)),
    ("shadowed_next", ([[1, 2], [], [3]],)),
    ("loop_then_try", (4, {0: 5})), ("loop_then_try", (4, {})),
    ("raise_inside_for", ({"next": {"name": "b"}, "name": "a"}, 1)),
    ("raise_inside_for", ({"next": {"name": "b"}, "name": "a"}, 2)),
    ("missing_method", ([{"a": 1}, {"b": None}], ["a", "b"])),
    ("missing_method", ([{"a": 1}, {"b": 2}], ["a", "b", "c"])),
    ("missing_method", ([{"a": 1}, {"b": 2}], ["b", "a"])), ("missing_method", ([], [])),
    ("prefixes", (["abc", "abd", "x"], {"ab"})), ("prefixes", (["", "q"], set())),
    ("for_in_while", ([[1, 2], [3, 0, 4], [], [5]], 0)), ("for_in_while", ([], 0)),
    ("first_words", (["a b", "", "  ", "c", "", "d e"],)), ("first_words", ([],)),
    ("prune", ([1, 2, 3, 4], 2, [])), ("prune", ([1, 2, 3], 9, [])), ("prune", ([], 0, [])),
    ("drop_flags", (["p", "-d", "-d", "x"],)), ("drop_flags", (["p", "-d"],)),
    ("drop_flags", ([],)),
    ("declared", ([{"a": 1}, {"notes": ("b",)}], ["a", "b"])),
    ("declared", ([{"a": None}], ["a"])), ("declared", ([{"notes": ["b"]}], ["b"])),
    ("declared", ([], [])),
    ("while_else_in_for", ([[1, 5], [], [2, 3], [9], [1, 4], [0]], 4)),
    ("while_else_in_for", ([[1, 2], [3]], 3)), ("while_else_in_for", ([], 0)),
    ("while_else_returns", (10, 1)), ("while_else_returns", (10, 3)),
    ("while_else_returns", (0, 0)),
    ("while_else_compound_test", (3, 10)), ("while_else_compound_test", (20, 20)),
    ("while_else_compound_test", (0, 5)),
    ("nested_while_else", ([[1, 2], [3], [], [2, 2], [2], [2]], 2)),
    ("nested_while_else", ([[1], [2]], 1)), ("nested_while_else", ([], 1)),
    ("while_true_returns", (50,)), ("while_true_returns", (0,)),
    ("while_returns_what_follows", (5, 2)), ("while_returns_what_follows", (5, 9)),
    ("while_true_break_in_for", ([[1], [], [2, 3]], 4)), ("while_true_break_in_for", ([], 1)),
    ("while_true_break_raises", (5,)),
    ("for_returns_constant", ([1, 2], 2)), ("for_returns_constant", ([1, None], 2)),
    ("for_returns_constant", ([1], 2)),
    ("for_else_break_raises", ([1, 2], 2)), ("for_else_break_raises", ([1], 2)),
    ("else_break_at_the_end", ("ab#cdx", lambda ch: ch == "x")),
    ("else_break_in_a_tested_loop", ("abxc", lambda ch: ch == "x")),
    ("else_break_in_a_tested_loop", ("ab", lambda ch: ch == "x")),
    ("first_entry", ({"a": 1, "b": 2},)), ("first_entry", ({},)),
    ("first_or_none", ([3, 4],)), ("first_or_none", ([],)),
    ("reap_until_below", (["1", "x", "2", "3"], 1)), ("reap_until_below", ([], 0)),
    ("reap_until_below", (["1", None, "2"], 0)), ("reap_until_below", ([{}], 0)),
    ("read_until_data", (["5", "0"], True)), ("read_until_data", (["x", "0"], True)),
    ("read_until_data", ([3, 0], False)), ("read_until_data", ([], True)),
    ("note_first_unusual", ([None, 1, "a", "b"], "", [])),
    ("note_first_unusual", ([None, "a"], "d", [])), ("note_first_unusual", ([1], "d", [])),
    ("open_each", (["1", "x", "-", "2"], [])), ("open_each", ([], [])),
    ("next_header", (["3", None, "x"],)), ("next_header", (["4"],)), ("next_header", ([],)),
    ("page_until_quit", ([1, 2, 3, 4], ["q", "b", "a"])), ("page_until_quit", ([1], ["a"])),
    ("page_until_quit", ([], [])),
    ("first_heap_type", ([str, int, bool], {bool})), ("first_heap_type", ([str, bool], {bool})),
    ("first_heap_type", ([str], set())),
    ("first_checked", ([1, "a"],)), ("first_checked", (["a"],)),
    ("defaults_for", (["a", "b", "*c", "d"], {"a": 1}, {"b": 2})), ("defaults_for", ([], {}, {})),
    ("settle_line", (["ab", "", "c "], False)), ("settle_line", (["ab"], True)),
    ("settle_line", ([" x "], False)), ("settle_line", ([], True)),
    ("final_number", (["x", "3"], True)), ("final_number", (["1", "x"], True)),
    ("final_number", ([" x", "y"], True)), ("final_number", (["y", " x"], False)),
    ("final_number", ([], False)),
    ("first_usable", (["a"], {"a": [lambda: "a0"]})),
    ("first_usable", (["a", "b"], {"a": [_fails(FileExistsError), lambda: "a1"], "b": []})),
    ("first_usable", (["a", "b"], {"a": [_fails(PermissionError)], "b": [lambda: "b0"]})),
    ("first_usable", (["a", "b"], {"a": [], "b": [_fails(FileExistsError)]})),
    ("first_usable", (["a"], {"a": [_fails(ValueError)]})), ("first_usable", ([], {})),
    ("find_caller", (["a\n", "s"], {"s"})), ("find_caller", (["b"], set())),
    ("find_caller", (["s"], {"s"})), ("find_caller", ([], set())),
    ("continue_under_a_negated_and", ([1, 1, 0, 0, 1, 0], 1, [])),
    ("continue_under_a_negated_and", ([1, 0, 1, 0], 0, [])),
    ("raises_after_a_try_that_continues", ([1, 1, 1, 0],)),
    ("raises_after_a_try_that_continues", ([1, 0],)),
    ("raises_after_a_try_that_continues", ([0],)),
    ("raises_after_an_empty_if_in_a_try", ([0, 1],)),
    ("raises_after_an_empty_if_in_a_try", ([0, 0],)),
    ("raises_after_an_empty_if_in_a_try", ([1],)),
    ("endless_loop_ends_a_for_body", ([[1, 0], [], [2]], [])),
    ("endless_loop_ends_a_for_body", ([], [])),
    ("endless_loop_ends_a_clause", ([1, 1, 1, 0], [])),
    ("endless_loop_ends_a_clause", ([1, 1, 0, 1, 1, 0, 1], [])),
    ("endless_loop_ends_a_clause", ([1, 0], [])), ("endless_loop_ends_a_clause", ([0], [])),
    ("endless_loop_ends_a_clause", ([1, 1], [])),
    ("endless_loops_end_a_clause", ([1, 1, 1, 1, 0, 1, 1, 0], [])),
    ("endless_loops_end_a_clause", ([1, 0, 1, 1, 0, 0], [])),
    ("endless_loops_end_a_clause", ([0], [])), ("endless_loops_end_a_clause", ([1], [])),
    ("endless_loop_ends_a_try_body", ([0, 1, 1], 3, [])),
    ("endless_loop_ends_a_try_body", ([0, 1, 1], 5, [])),
    ("continue_under_a_chained_test", ([1, 2, 3, 9, 4], 0, 5)),
    ("continue_under_a_chained_test", ([1, 2], 1, 5)),
    ("continue_under_a_chained_test", ([], 0, 5)),
    ("finally_breaks_a_for", ([1, 2], [])), ("finally_breaks_a_for", ([None, 1], [])),
    ("finally_breaks_a_for", ([], [])),
    ("breaks_from_a_try_else_under_an_or", ([1, 0, 5, 0], [])),
    ("breaks_from_a_try_else_under_an_or", ([0, 0, 0], [])),
    ("breaks_from_a_try_else_under_an_or", ([3, 0, 0, 0, 0], [])),
    ("breaks_from_a_try_else_under_an_or", ([1], None)),
    ("clause_breaks_past_the_else", ([1, 0, 2], [])),
    ("clause_breaks_past_the_else", ([0, 5], [])), ("clause_breaks_past_the_else", ([], [])),
    ("clause_returns_from_an_endless_loop", ([0, 2, 3], ["x", "v", "k", "v"])),
    ("clause_returns_from_an_endless_loop", ([1], ["v", "v"])),
    ("clause_returns_from_an_endless_loop", ([-1, 0], ["k"])),
    ("clause_returns_from_an_endless_loop", ([], [])),
    ("conditional_test_continues", ([1, 1, 1, 0, 1, 0, 0], True, [])),
    ("conditional_test_continues", ([0, 0, 1, 0, 0, 1], False, [])),
    ("conditional_test_continues", ([1, 0, 0, 1, 1], False, [])),
    ("conditional_test_continues", ([0], True, [])),
    ("while_else_ends_a_for_body", ([[1, -1, 2], [], [3, 4]], [])),
    ("while_else_ends_a_for_body", ([], [])),
    ("while_else_with_or_ends_a_for_body", ([[1, -1, 2], [], [3, 4]], [])),
    ("while_else_with_or_ends_a_for_body", ([[], [1]], ["stop"])),
    ("while_else_with_or_ends_a_for_body", ([[1], [2], [3], [4]], [])),
    ("endless_loop_returns_from_a_for_body", ([0, 0, 1], True)),
    ("endless_loop_returns_from_a_for_body", ([1, 1], True)),
    ("endless_loop_returns_from_a_for_body", ([0, 0], True)),
    ("endless_loop_returns_from_a_for_body", ([], False)),
]
