"""Run a function and record everything observable about the call.

Two functions mean the same when, called with equal inputs, they give equal
records: the result (generators and coroutines driven to the end, step by step),
the exception (type and message), what happened to the arguments and to the
module's globals. Values are described without identities or addresses, so
objects from two separately executed modules compare by content.
"""

import copy
import inspect
import types

MAX_STEPS = 200
MAX_DEPTH = 8
SCALARS = (type(None), bool, int, str, bytes, complex, range, slice, type(Ellipsis))


def describe(value, depth: int = 0):
    """A comparable picture of ``value``."""
    if depth > MAX_DEPTH:
        return ("...",)
    deeper = depth + 1
    if isinstance(value, SCALARS):
        return (type(value).__name__, repr(value))
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [describe(item, deeper) for item in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(repr(describe(item, deeper)) for item in value))
    if isinstance(value, dict):
        return ("dict", [(describe(k, deeper), describe(v, deeper)) for k, v in value.items()])
    if isinstance(value, BaseException):
        return _describe_exception(value, deeper)
    if isinstance(value, (types.FunctionType, types.MethodType)):
        return _describe_function(value)
    if isinstance(value, type):
        return _describe_class(value, deeper)
    if isinstance(value, types.ModuleType):
        return ("module", value.__name__)
    return _describe_object(value, deeper)


def _describe_exception(error: BaseException, depth: int):
    grouped = [describe(sub, depth) for sub in getattr(error, "exceptions", ())]
    cause = type(error.__cause__).__qualname__ if error.__cause__ is not None else None
    return ("exception", type(error).__qualname__, str(error), grouped, cause)


def _describe_function(function):
    try:
        signature = str(inspect.signature(function))
    except (TypeError, ValueError):
        signature = "?"
    return ("function", function.__name__, function.__qualname__, signature, function.__doc__)


def _describe_class(cls: type, depth: int):
    bases = [base.__qualname__ for base in cls.__bases__]
    attributes = {
        name: describe(value, depth)
        for name, value in vars(cls).items()
        if not (name.startswith("__") and name.endswith("__")) or name == "__doc__"
    }
    return ("class", cls.__name__, cls.__qualname__, bases, describe(attributes, depth))


def _describe_object(value, depth: int):
    kind = type(value).__qualname__
    if inspect.isgenerator(value) or inspect.iscoroutine(value) or inspect.isasyncgen(value):
        return (kind, value.__name__, value.__qualname__)
    if isinstance(value, (staticmethod, classmethod, property)):
        parts = [getattr(value, "__func__", None), getattr(value, "fget", None)]
        return (kind, [describe(part, depth) for part in parts])
    state = getattr(value, "__dict__", None)
    if state is not None:
        return ("object", kind, describe(state, depth))
    text = repr(value)
    return ("object", kind, None if " at 0x" in text else text)


def globals_snapshot(namespace: dict, *, everything: bool = False) -> dict:
    """The module's data globals (or, with ``everything``, all its public names)."""
    snapshot = {}
    for name, value in namespace.items():
        if name.startswith("__") and name.endswith("__"):
            continue
        is_code = isinstance(value, (types.FunctionType, type, types.ModuleType))
        if everything or not is_code:
            snapshot[name] = describe(value)
    return snapshot


def record_call(function, args: tuple, kwargs: dict, namespace: dict) -> list:
    """What calling ``function(*args, **kwargs)`` did, as a list of events."""
    args, kwargs = copy.deepcopy((args, kwargs))
    events: list = []
    try:
        result = function(*args, **kwargs)
        _drive(result, events)
    except Exception as error:
        events.append(("raise", describe(error)))
    events.append(("arguments after", describe((args, kwargs))))
    events.append(("globals after", globals_snapshot(namespace)))
    return events


def _drive(result, events: list) -> None:
    if inspect.isgenerator(result):
        events.append(("generator", result.__name__, result.__qualname__))
        _drive_generator(result, events)
    elif inspect.iscoroutine(result):
        events.append(("coroutine", result.__name__, result.__qualname__))
        events.append(("return", describe(_drive_awaitable(result, events))))
    elif inspect.isasyncgen(result):
        events.append(("async generator", result.__name__, result.__qualname__))
        _drive_async_generator(result, events)
    else:
        events.append(("return", describe(result)))


def _drive_generator(generator, events: list) -> None:
    for _ in range(MAX_STEPS):
        try:
            item = next(generator)
        except StopIteration as stop:
            events.append(("return", describe(stop.value)))
            return
        events.append(("yield", describe(item)))
    generator.close()
    events.append(("still yielding after", MAX_STEPS))


def _drive_awaitable(awaitable, events: list):
    """Run an awaitable without an event loop: each value it yields is recorded."""
    steps = awaitable.__await__()
    for _ in range(MAX_STEPS):
        try:
            yielded = steps.send(None)
        except StopIteration as stop:
            return stop.value
        events.append(("awaiting", describe(yielded)))
    steps.close()
    raise RuntimeError(f"still awaiting after {MAX_STEPS} steps")


def _drive_async_generator(generator, events: list) -> None:
    for _ in range(MAX_STEPS):
        try:
            item = _drive_awaitable(generator.__anext__(), events)
        except StopAsyncIteration:
            events.append(("return", None))
            return
        events.append(("yield", describe(item)))
    events.append(("still yielding after", MAX_STEPS))


def first_difference(expected, actual, path: str = "") -> str:
    """Where two records part, in one line: a path and both values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in [*expected, *(k for k in actual if k not in expected)]:
            if expected.get(key, "<missing>") != actual.get(key, "<missing>"):
                return first_difference(
                    expected.get(key, "<missing>"), actual.get(key, "<missing>"), f"{path}.{key}"
                )
    same_kind = isinstance(expected, (list, tuple)) and type(expected) is type(actual)
    if same_kind and len(expected) == len(actual):
        for index, (left, right) in enumerate(zip(expected, actual)):
            if left != right:
                return first_difference(left, right, f"{path}[{index}]")
    return f"at {path or 'top'}: expected {expected!r:.300}, got {actual!r:.300}"
