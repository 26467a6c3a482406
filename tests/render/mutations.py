"""Damage done to a copy of a real dump, for the render fuzz test (issue 21).

Each mutation is a small frozen record that says what it does in its ``str`` and
turns into JSON and back, so a failure names exactly how to rebuild its dump:

    python benchmarks/render_fuzz.py --replay '<the JSON the failure printed>'

``mutation_lists(seed)`` is the hypothesis strategy that draws them. Applying one
never writes through a symlink another mutation left, and a mutation whose target
is gone or no longer a plain file does nothing.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from hypothesis import strategies as st

from depyf_report.dump import SCHEMA_VERSION

# Seeds are copied to <sandbox>/dump; these sit beside it (see fuzz_render.Sandbox).
OUTSIDE = "outside"  # a copy of the seed with MARKER in every string: must never be read
OTHER_DUMP = "other_dump"  # another, intact dump: must never be read either
MARKER = "CANARY-7f3e1b-outside-the-dump"

# Raw JSON text put in place of a value. Text rather than data, so that NaN, lone
# surrogates, 5,000-digit integers and 100,000-deep nesting reach the file as such.
HUGE_STRING_BYTES = int(os.environ.get("DEPYF_FUZZ_HUGE_BYTES", 2_000_000))
VALUES = {
    "null": "null",
    "true": "true",
    "zero": "0",
    "negative": "-1",
    "float": "1.5",
    "empty string": '""',
    "string": '"x"',
    "digits string": '"12"',
    "empty list": "[]",
    "list": '[1, "a", null]',
    "empty object": "{}",
    "object": '{"a": 1}',
    "int 10**400": "1" + "0" * 400,
    "int of 5000 digits": "9" * 5000,
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "lone surrogate": '"a\\udc80b"',
    "RTL override": '"abc\\u202edef.py"',
    "NUL": '"a\\u0000b"',
    "terminal escape": '"\\u001b[31mred\\u001b[0m\\u0007"',
    "C1 control": '"a\\u009b31mb"',
    "path traversal": '"../../../../escaped"',
    "path out of the dump": '"../outside/functions/step.json"',
    "view path out of the dump": '"views/../../outside/views/0.json"',
    "absolute path": '"/etc/passwd"',
    "slashes": '"a/b\\\\c"',
    "newlines": '"a\\n\\nb\\r\\nc"',
    "markup": '"</script><script>alert(1)</script>"',
    "newer schema": str(SCHEMA_VERSION + 1),
    "nested 1,000 deep": "[" * 1000 + "]" * 1000,
    "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
    "huge string": None,  # HUGE_STRING_BYTES of text, built when applied
}
# A whole file's text replaced.
TEXTS = {
    "empty": b"",
    "null": b"null",
    "list": b"[]",
    "number": b"42",
    "string": b'"manifest"',
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "object nested 100,000 deep": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "UTF-8 BOM first": None,  # the original text after a BOM
    "UTF-16": None,  # the original text in UTF-16
}
# Names for extra files, as bytes: not all are UTF-8, some hold terminal controls.
ODD_NAMES = {
    "invalid UTF-8": b"\xff\xfe.json",
    "encoded surrogate": b"\xed\xb2\x80.json",
    "terminal escape": b"\x1b[2J\x1b[31mred.json",
    "newline": b"evil\ndepyf-report: error: forged.json",
    "bell and backspace": b"\x07\x08.json",
    "RTL override": "\u202enosj.exe.json".encode(),
    "leading dash": b"-rf.json",
}
LINK_TARGETS = (
    "outside the dump",
    "other dump",
    "the manifest",  # a link that stays inside the dump is still not a regular file
    "itself",
    "its folder",
    "dangling",
)


def _raw_value(name: str) -> str:
    if name == "huge string":  # one line of code: a string literal, as source or graph
        return json.dumps('x = "' + "a" * HUGE_STRING_BYTES + '"  # one line\n')
    return VALUES[name]


@dataclass(frozen=True)
class Mutation:
    """One change to a dump; ``target`` is a path relative to the dump root."""

    target: str

    def apply(self, dump: Path) -> bool:
        """Change the dump; False when there was nothing to change."""
        raise NotImplementedError

    def to_json(self) -> dict:
        return {"kind": type(self).__name__, **dataclasses.asdict(self)}

    @staticmethod
    def from_json(data: dict) -> Mutation:
        data = dict(data)
        cls = KINDS[data.pop("kind")]
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})

    def plain_file(self, dump: Path) -> Path | None:
        """The target as a regular file reached through no symlink, else None."""
        path = _no_links(dump, self.target)
        return path if path is not None and path.is_file() else None


def _no_links(dump: Path, target: str) -> Path | None:
    """``dump/target`` if no part of it below the dump is a symlink."""
    path = dump
    for part in PurePosixPath(target).parts:
        path = path / part
        if path.is_symlink():
            return None
    return path


def _json_path_text(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path) or "(whole)"


@dataclass(frozen=True)
class ReplaceValue(Mutation):
    """The value at ``path`` inside a JSON file becomes ``value`` (a VALUES name)."""

    path: tuple = ()
    value: str = "null"

    def __str__(self):
        return f"{self.target}: {_json_path_text(self.path)} = {self.value}"

    def apply(self, dump):
        return _splice(self.plain_file(dump), self.path, _raw_value(self.value))


@dataclass(frozen=True)
class DeleteKey(Mutation):
    path: tuple = ()

    def __str__(self):
        return f"{self.target}: delete {_json_path_text(self.path)}"

    def apply(self, dump):
        return _edit(self.plain_file(dump), self.path, lambda parent, key: parent.pop(key))


@dataclass(frozen=True)
class AddKey(Mutation):
    """An unknown key in the object at ``path``: a newer writer's field."""

    path: tuple = ()

    def __str__(self):
        return f"{self.target}: add unknown key at {_json_path_text(self.path)}"

    def apply(self, dump):
        def add(parent, key):
            if isinstance(parent[key], dict):
                parent[key]["zz_future_field"] = {"from": "a newer capture"}

        return _edit(self.plain_file(dump), (*self.path, None), add)


@dataclass(frozen=True)
class Truncate(Mutation):
    at: int = 0  # a byte offset, taken modulo the file's size

    def __str__(self):
        return f"{self.target}: truncate at byte {self.at} (mod size)"

    def apply(self, dump):
        path = self.plain_file(dump)
        if path is None:
            return False
        data = path.read_bytes()
        path.write_bytes(data[: self.at % max(len(data), 1)])
        return True


@dataclass(frozen=True)
class InvalidUtf8(Mutation):
    at: int = 0

    def __str__(self):
        return f"{self.target}: invalid UTF-8 bytes at {self.at} (mod size)"

    def apply(self, dump):
        path = self.plain_file(dump)
        if path is None:
            return False
        data = path.read_bytes()
        at = self.at % max(len(data), 1)
        path.write_bytes(data[:at] + b"\xff\xc0\x80" + data[at:])
        return True


@dataclass(frozen=True)
class ReplaceText(Mutation):
    text: str = "empty"  # a TEXTS name

    def __str__(self):
        return f"{self.target}: whole file = {self.text}"

    def apply(self, dump):
        path = self.plain_file(dump)
        if path is None:
            return False
        data = TEXTS[self.text]
        if self.text == "UTF-8 BOM first":
            data = b"\xef\xbb\xbf" + path.read_bytes()
        elif self.text == "UTF-16":
            data = path.read_bytes().decode("utf-8", "replace").encode("utf-16")
        path.write_bytes(data)
        return True


@dataclass(frozen=True)
class Delete(Mutation):
    def __str__(self):
        return f"{self.target}: deleted"

    def apply(self, dump):
        path = _no_links(dump, self.target)
        if path is None or not path.exists():
            return False
        _remove(path)
        return True


@dataclass(frozen=True)
class Symlink(Mutation):
    """The file or folder becomes a symlink; ``to`` is one of LINK_TARGETS."""

    to: str = "outside the dump"

    def __str__(self):
        return f"{self.target}: symlink to {self.to}"

    def apply(self, dump):
        path = _no_links(dump, self.target)
        if path is None or not (path.exists() or self.to == "outside the dump"):
            return False
        sandbox = dump.parent
        target = {
            "outside the dump": sandbox / OUTSIDE / self.target,
            "other dump": sandbox / OTHER_DUMP / self.target,
            "the manifest": Path(os.path.relpath(dump / "manifest.json", path.parent)),
            "itself": path,
            "its folder": Path("."),
            "dangling": Path("no-such-file.json"),
        }[self.to]
        if self.to == "other dump" and not target.exists():
            target = sandbox / OTHER_DUMP / "manifest.json"
        _remove(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)
        return True


@dataclass(frozen=True)
class Fifo(Mutation):
    """A named pipe where a file is: opening it for reading blocks forever."""

    def __str__(self):
        return f"{self.target}: a FIFO"

    def apply(self, dump):
        path = _no_links(dump, self.target)
        if path is None or not path.parent.is_dir():
            return False
        _remove(path)
        os.mkfifo(path)
        return True


@dataclass(frozen=True)
class FolderForFile(Mutation):
    def __str__(self):
        return f"{self.target}: a folder instead"

    def apply(self, dump):
        path = self.plain_file(dump)
        if path is None:
            return False
        path.unlink()
        path.mkdir()
        (path / "inner.json").write_text("{}")
        return True


@dataclass(frozen=True)
class FileForFolder(Mutation):
    def __str__(self):
        return f"{self.target}: a file instead of the folder"

    def apply(self, dump):
        path = _no_links(dump, self.target)
        if path is None or not path.is_dir():
            return False
        shutil.rmtree(path)
        path.write_text("{}")
        return True


@dataclass(frozen=True)
class OddName(Mutation):
    """A copy of the folder's first record under a name from ODD_NAMES."""

    name: str = "invalid UTF-8"

    def __str__(self):
        return f"{self.target}: extra record named {ODD_NAMES[self.name]!r}"

    def apply(self, dump):
        folder = _no_links(dump, self.target)
        if folder is None or not folder.is_dir():
            return False
        records = sorted(p for p in folder.glob("*.json") if p.is_file() and not p.is_symlink())
        data = records[0].read_bytes() if records else b"{}"
        with open(os.fsencode(folder) + b"/" + ODD_NAMES[self.name], "wb") as out:
            out.write(data)
        return True


@dataclass(frozen=True)
class CopyRecord(Mutation):
    """A second file holding the same record: two records with one id."""

    def __str__(self):
        return f"{self.target}: copied beside itself"

    def apply(self, dump):
        path = self.plain_file(dump)
        if path is None:
            return False
        shutil.copyfile(path, path.with_name(f"{path.stem}-copy{path.suffix}"))
        return True


@dataclass(frozen=True)
class LiveDecompilerPid(Mutation):
    """views/decompiler.pid naming a live process on this host (the fuzzer itself)."""

    def __str__(self):
        return f"{self.target}: names a live process"

    def apply(self, dump):
        folder = _no_links(dump, str(PurePosixPath(self.target).parent))
        if folder is None or (folder.exists() and not folder.is_dir()):
            return False
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "decompiler.pid").write_text(f"{os.getpid()} {socket.gethostname()}")
        return True


KINDS = {
    cls.__name__: cls
    for cls in (
        ReplaceValue,
        DeleteKey,
        AddKey,
        Truncate,
        InvalidUtf8,
        ReplaceText,
        Delete,
        Symlink,
        Fifo,
        FolderForFile,
        FileForFolder,
        OddName,
        CopyRecord,
        LiveDecompilerPid,
    )
}


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _load(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError):
        return None  # an earlier mutation broke it: JSON edits no longer apply


def _edit(path: Path | None, json_path: tuple, change) -> bool:
    """Call ``change(parent, key)`` on the item at ``json_path``; write the result."""
    data = None if path is None else _load(path)
    if data is None or not json_path:
        return False
    parent = _follow(data, json_path[:-1])
    key = json_path[-1]
    if parent is None or (key is not None and not _has(parent, key)):
        return False
    if key is None:  # AddKey's object is the one at the path itself
        parent, key = {"root": parent}, "root"
    change(parent, key)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return True


def _splice(path: Path | None, json_path: tuple, raw: str) -> bool:
    """Put ``raw`` JSON text at ``json_path``, through a placeholder string."""
    data = None if path is None else _load(path)
    if data is None:
        return False
    placeholder = "@@FUZZ-PLACEHOLDER@@"
    if json_path:
        parent = _follow(data, json_path[:-1])
        if parent is None or not _has(parent, json_path[-1]):
            return False
        parent[json_path[-1]] = placeholder
    else:
        data = placeholder
    text = json.dumps(data, ensure_ascii=False).replace(f'"{placeholder}"', raw, 1)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return True


def _follow(data, json_path: tuple):
    for key in json_path:
        if not _has(data, key):
            return None
        data = data[key]
    return data if isinstance(data, (dict, list)) else None


def _has(container, key) -> bool:
    if isinstance(container, dict):
        return key in container
    return isinstance(container, list) and isinstance(key, int) and 0 <= key < len(container)


# --- strategies -------------------------------------------------------------------


@st.composite
def json_paths(draw, data) -> tuple:
    """A path to some value inside ``data``, at any depth."""
    path: list = []
    while isinstance(data, (dict, list)) and data and draw(st.integers(0, 4)) > 0:
        key = draw(st.sampled_from(sorted(data) if isinstance(data, dict) else range(len(data))))
        path.append(key)
        data = data[key]
    return tuple(path)


@st.composite
def mutations(draw, seed) -> Mutation:
    """One mutation of the dump ``seed`` (a ``fuzz_render.Seed``)."""
    kind = draw(st.sampled_from([*["ReplaceValue"] * 6, "DeleteKey", *KINDS]))
    if kind in ("FileForFolder", "OddName"):
        return KINDS[kind](draw(st.sampled_from(seed.folders)))
    # The manifest decides how much of the dump renders: damage it more often.
    target = draw(st.sampled_from([*seed.files, *["manifest.json"] * 3]))
    if kind in ("ReplaceValue", "DeleteKey", "AddKey"):
        path = draw(json_paths(seed.data(target)))
        if kind == "DeleteKey" and not path:
            kind = "Delete"
        elif kind == "ReplaceValue":
            return ReplaceValue(target, path, draw(st.sampled_from(sorted(VALUES))))
        else:
            return KINDS[kind](target, path)
    if kind in ("Truncate", "InvalidUtf8"):
        return KINDS[kind](target, draw(st.integers(0, 1 << 20)))
    if kind == "ReplaceText":
        return ReplaceText(target, draw(st.sampled_from(sorted(TEXTS))))
    if kind == "Symlink":
        to = draw(st.sampled_from(LINK_TARGETS))
        if draw(st.booleans()):  # a folder rather than a file
            target = draw(st.sampled_from(seed.folders))
        return Symlink(target, to)
    if kind == "LiveDecompilerPid":
        return LiveDecompilerPid("views/decompiler.pid")
    return KINDS[kind](target)


def mutation_lists(seed, max_size: int = 3):
    return st.lists(mutations(seed), min_size=1, max_size=max_size)
