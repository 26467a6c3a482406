"""One function's whole story as a single Python file a user can download.

The original source, then each cache entry's guards (the tree as comments, the
changes from the entry before where it has almost the same tree, and a function
returning whether they all hold) and its transformed code, then each resume
function the same way.

The file is for reading, and it is inert: running or importing it runs nothing
that came from the dump, whose text may be anyone's. Dump text lands in one of
three places only:

- a comment, one ``# `` per line, split at every line break Python or an editor
  knows, with control characters written out (``terminal_safe``);
- code inside a function of ours that nothing calls (``def original_source():``),
  kept only if the module it makes holds exactly that one plain ``def``;
- a guard expression, parsed as one expression and printed again by
  ``ast.unparse``, inside the body of the guard function.

The file is inert by construction, so it is not compiled again as a whole (a
32-layer model's story is megabytes; compiling it took longer than the rest of
the story). Each piece is a complete module on its own: our docstring, comment
lines, or one plain ``def`` (no decorators, defaults or annotations, which run
at definition) that compiled alone. A module that compiles ends with no open
bracket, string or line continuation, so the tokenizer starts the next piece as
it starts a file, and the pieces joined are those ``def`` statements and nothing
else. ``is_inert`` states that property; the tests check it on hostile dumps.
"""

from __future__ import annotations

import ast
import difflib
import functools
import keyword
import re
import textwrap

from ..dump import CacheEntry, Function
from ..terminal import terminal_safe
from .context import ProcessContext

# Code longer than this is kept as comments: checking it would build a syntax
# tree many times its size.
CODE_LIMIT = 2_000_000

# No dump text on the first two lines: Python reads an encoding declaration there.
HEADER = '''"""What torch.compile did with one function, written by depyf-report.

Running or importing this file runs nothing: each piece of code is shown inside a
function that nothing calls. Names Dynamo creates (__compiled_fn_*, __resume_at_*,
___check_*) are not defined here; the file shows the code, it does not run the model.
"""'''


def function_story(ctx: ProcessContext, fn: Function) -> str:
    parts = [HEADER, comment(f"function: {fn.qualname}")]
    for member in _with_resumes(ctx, fn):
        parts.append(_function_part(member))
    return "\n\n".join(parts).rstrip() + "\n"


def _with_resumes(ctx: ProcessContext, fn: Function) -> list[Function]:
    found, todo = [], [fn]
    while todo:
        current = todo.pop(0)
        if current not in found:
            found.append(current)
            todo += ctx.resumes_of.get(current.id, [])
    return found


def _function_part(fn: Function) -> str:
    kind = "resume function" if fn.is_resume else "function"
    label = _identifier(fn.name)
    parts = [_banner(f"{kind} {fn.qualname} ({fn.filename}:{fn.first_line})", "=")]
    if fn.resume:
        parts.append(
            comment(
                f"resumes line {fn.resume.resume_line} "
                f"after the graph break on line {fn.resume.break_line}"
            )
        )
    if fn.is_resume:
        parts.append(_banner("resume function code, decompiled", "-"))
        missing = fn.original.decompile_error or "not decompiled"
        parts.append(shown_code(f"code_of_{label}", fn.original.decompiled or "", missing))
    else:
        parts.append(_banner("original source", "-"))
        source = textwrap.dedent(fn.source or "")
        parts.append(shown_code(f"source_of_{label}", source, "source not captured"))
    for index, entry in enumerate(fn.entries):
        parts.append(_entry_part(fn, index, entry))
    return "\n".join(parts)


def _entry_part(fn: Function, index: int, entry: CacheEntry) -> str:
    label = _identifier(fn.name)
    code = entry.code.decompiled or ""
    missing = entry.code.decompile_error or "not decompiled"
    guards = [g.expression for g in entry.guards.guards] + entry.guards.shape_guards
    before = fn.entries[index - 1].guards.tree if index else None
    return "\n".join(
        [
            _banner(f"cache entry {index} (compile {entry.compile_id}): guards", "-"),
            comment(guard_tree_text(entry.guards.tree, before, index)),
            guard_function(f"guard_{index}_for_{label}", guards),
            _banner(f"cache entry {index}: transformed code", "-"),
            shown_code(f"transformed_code_{index}_of_{label}", code, missing),
        ]
    )


# A tree is written as its changes from the entry before only where that is
# much shorter, and where diffing is cheap: difflib can take quadratic time.
DIFF_LINES = 100_000


def guard_tree_text(tree: str, before: str | None, index: int) -> str:
    """An entry's guard tree, or where the entry before has almost the same tree
    (a recompile keeps most checks: a 32-layer model's three trees of 6,470 lines
    differ in about 100), what changed from it, as a unified diff."""
    if before is None:
        return tree
    lines, old = tree.splitlines(), before.splitlines()
    if not lines or max(len(lines), len(old)) > DIFF_LINES:
        return tree
    shared = len(set(lines) & set(old))
    if shared < 0.9 * len(set(lines)):
        return tree
    previous, this = f"cache entry {index - 1}", f"cache entry {index}"
    diff = list(difflib.unified_diff(old, lines, previous, this, lineterm="", n=2))
    if not diff:
        return f"the same guard tree as {previous}"
    text = "\n".join(diff)
    if len(text) * 2 > len(tree):
        return tree
    return (
        f"the guard tree of {previous} with these changes (a unified diff: lines starting"
        f' with "-" are only in {previous}, "+" only in {this}; the function page shows'
        f" the whole tree)\n{text}"
    )


def guard_function(name: str, expressions: list[str]) -> str:
    """A function that is true when every guard holds; unparsable guards become comments.

    Each guard was compiled alone in this very place (``_expression``), so the
    function is not compiled again: ``name`` is an ASCII identifier of ours.
    """
    valid, skipped = [], []
    for text in expressions:
        code = _expression(text)
        if code is None:
            skipped.append(textwrap.indent(comment(f"not a Python expression: {text}"), "    "))
        else:
            valid.append(f"({code})")
    body = "\n        and ".join(valid) or "True"
    lines = [
        f"def {name}(L, G, **___kwargs_ignored):",
        *skipped,
        f"    return (\n        {body}\n    )",
    ]
    return "\n".join(lines)


# A guard is checked where it will stand: among others in the guard function's
# ``return (... and ...)``, which is the same syntax tree and bracket depth
# whatever the number of guards, so one that compiles here compiles there.
_GUARD_PLACE = (
    "def guard(L, G, **___kwargs_ignored):\n    return (\n        ({})\n        and True\n    )"
)


_PLAIN_LINE = re.compile(r"[ -\"$-\[\]-~]*")  # printable ASCII but "#" and "\\"


@functools.cache  # compiled on first use: a render without guards never needs it
def _simple_guard_pattern(depth: int = 2) -> re.Pattern:
    """Most guards torch prints have one shape: a check called on chains of
    attributes, subscripts and calls, compared with a constant. ``depth`` is how
    deep calls nest: two hold nearly all guards, and the pattern grows threefold a level."""
    name = r"(?!(?:True|False|None)\b)[A-Za-z_][A-Za-z0-9_]*"
    number = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?"  # no leading zero
    const = rf"(?:True|False|None|{number}|{_STRING.pattern})"
    value = rf"(?:{name}(?:\.{name}|\[{const}\])*|{const})"
    for _ in range(depth):  # each round lets a value hold calls of the one before
        args = rf"(?:{value}(?:, (?![)\]])|(?=[)\]])))*"  # each value once: the pattern stays small
        value = rf"(?:{name}(?:\.{name}|\[{value}\]|\({args}\))*|{const}|\[{args}\])"
    compare = r"==|!=|<=|>=|<|>|is not|is|not in|in"
    return re.compile(rf"(?P<negated>not )?{value}(?: (?P<compare>{compare}) {value})?")


_STRING = re.compile(r"'[^'\\]*'|\"[^\"\\]*\"")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_simple_guard(text: str) -> bool:
    """Whether ``text`` is a guard of the simple shape, which is one expression that
    compiles wherever an expression does, so it needs no parse: a 32-layer model
    has thousands. Besides the pattern, no keyword may stand as a name (the
    pattern's names keep out only the constants); calls take no keywords, so
    none repeats. ``tests/render/test_story.py`` compares this with the parse."""
    match = _simple_guard_pattern().fullmatch(text)
    if match is None:
        return False
    words = _WORD.findall(_STRING.sub(" ", text))
    for word in f"{match['negated'] or ''} {match['compare'] or ''}".split():
        if word.isalpha():
            words.remove(word)  # the "not" in front and the comparison's words
    return not any(keyword.iskeyword(w) and w not in ("True", "False", "None") for w in words)


@functools.lru_cache(maxsize=1 << 16)  # the entries of a function repeat most guards
def _expression(text: str) -> str | None:
    """``text`` printed again from its syntax tree, if it is one Python expression
    that compiles in the guard function."""
    if len(text) > CODE_LIMIT:
        return None
    if _PLAIN_LINE.fullmatch(text) and is_simple_guard(text):
        return text
    return parsed_expression(text)


def parsed_expression(text: str) -> str | None:
    """``_expression`` by parsing and compiling ``text`` in place."""
    try:
        tree = ast.parse(text, mode="eval")
        # Plain text that parsed is shown as it is (printing it again is most of
        # the cost); anything else is printed again, on one line.
        code = text.strip() if _PLAIN_LINE.fullmatch(text) else ast.unparse(tree)
        if "\n" in code or "\r" in code:
            return None
        compile(_GUARD_PLACE.format(code), "<guard>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return code


def shown_code(name: str, text: str, missing: str) -> str:
    """``text`` as the body of ``def name():``, which nothing calls; or as comments."""
    if not text.strip():
        return comment(f"({missing})")
    if len(text) > CODE_LIMIT:
        return comment(f"(too long to check as code; shown as comments)\n{text}")
    body = _indented(text.replace("\r\n", "\n").replace("\r", "\n"))
    function = f"def {name}():  # never called: shows the code, runs nothing\n{body}"
    if _one_plain_def(function, name):
        return function
    return comment(f"(not valid Python inside a function; shown as comments)\n{text}")


def _indented(text: str) -> str:
    """Each line indented, except lines inside a string literal, whose text would change."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return textwrap.indent(text, "    ")  # checked, and refused, by the caller
    inside = _lines_inside_strings(tree)
    lines = text.split("\n")
    return "\n".join(
        line if number in inside or not line.strip() else "    " + line
        for number, line in enumerate(lines, start=1)
    ).rstrip()


def _lines_inside_strings(tree: ast.AST) -> set[int]:
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant | ast.JoinedStr) and node.end_lineno > node.lineno:
            inside.update(range(node.lineno + 1, node.end_lineno + 1))
    return inside


def _one_plain_def(text: str, name: str) -> bool:
    """Whether ``text`` compiles to a module that only defines the function ``name``."""
    try:
        tree = ast.parse(text)
        compile(tree, "<story>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return len(tree.body) == 1 and _plain_def(tree.body[0]) and tree.body[0].name == name


def is_inert(story: str) -> bool:
    """Whether running ``story`` only defines functions: nothing else at its top level."""
    try:
        tree = ast.parse(story)
        compile(tree, "<story>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    docstring, *rest = tree.body
    plain_doc = isinstance(docstring, ast.Expr) and isinstance(docstring.value, ast.Constant)
    return plain_doc and all(_plain_def(node) for node in rest)


def _plain_def(node: ast.stmt) -> bool:
    """A ``def`` whose definition evaluates nothing: no decorators, defaults or annotations."""
    if not isinstance(node, ast.FunctionDef) or node.decorator_list or node.returns:
        return False
    args = node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    no_defaults = not args.defaults and not any(args.kw_defaults)
    return (
        no_defaults
        and not getattr(node, "type_params", None)
        and not any(a.annotation for a in every if a is not None)
    )


def comment(text: str) -> str:
    """``text`` as comment lines; nothing in it can end a comment or start code."""
    lines = str(text).splitlines() or [""]
    return "\n".join(f"# {terminal_safe(line)}".rstrip() for line in lines)


def _banner(text: str, fill: str) -> str:
    text = terminal_safe(text)  # one line, whatever line breaks it held
    return f"\n# {fill * 3} {text} {fill * max(3, 72 - len(text))}"


def _identifier(text: str) -> str:
    """An ASCII identifier part from a dump's name: letters, digits and "_" only."""
    return re.sub(r"[^0-9A-Za-z_]", "_", text)[:60]
