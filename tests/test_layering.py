"""Dependencies point one way: decompiler <- capture <- debug; dump <- capture, render, debug.

``import depyf_report`` must stay light, the decompiler must need the standard
library alone, and rendering must never need torch. Each concern has one place:
the debugger is the ``debug`` package, the dump's file names are spelled in
``depyf_report/dump/`` alone, and other parts use the decompiler through its
package. The rules read the source with ``ast``, so breaking one fails here.
"""

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "depyf_report"


def _modules_loaded_by(statement: str) -> set[str]:
    probe = f"import sys; {statement}; print('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout
    return {name.partition(".")[0] for name in out.split()}


@pytest.mark.parametrize(
    ("statement", "forbidden"),
    [
        ("import depyf_report", {"torch", "jinja2", "pygments", "markdown"}),
        ("import depyf_report.decompiler", {"torch", "jinja2", "pygments", "markdown", "astor"}),
        ("import depyf_report.render", {"torch"}),
        ("import depyf_report.dump", {"torch", "jinja2", "pygments", "markdown"}),
        ("import depyf_report.cli", {"torch", "jinja2"}),
        # A log renders where torch is not installed.
        ("import depyf_report.logs", {"torch", "jinja2", "pygments", "markdown"}),
    ],
)
def test_import_does_not_load(statement, forbidden):
    loaded = _modules_loaded_by(statement)
    assert not loaded & forbidden, f"{statement!r} loaded {sorted(loaded & forbidden)}"


def _imported_top_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def test_decompiler_source_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names)
    for path in sorted((PACKAGE / "decompiler").rglob("*.py")):
        outside = _imported_top_names(path) - allowed
        assert not outside, f"{path.name} imports {sorted(outside)}"


@pytest.mark.parametrize(
    ("part", "forbidden"), [("render", {"torch"}), ("dump", {"torch"}), ("logs", {"torch"})]
)
def test_part_source_never_names(part, forbidden):
    target = PACKAGE / part
    paths = [target] if target.is_file() else sorted(target.rglob("*.py"))
    for path in paths:
        assert not _imported_top_names(path) & forbidden, f"{path.name} imports {forbidden}"


def test_the_debugger_is_one_package():
    assert (PACKAGE / "debug" / "__init__.py").is_file()
    stray = sorted(p.name for p in PACKAGE.glob("debug*.py"))
    assert not stray, f"debugger modules outside depyf_report/debug/: {stray}"


def test_debug_and_capture_stay_the_functions_users_call():
    # Each is a subpackage too: importing one of its modules must not rebind the name.
    probe = (
        "import depyf_report.debug.session, depyf_report.capture.session, depyf_report; "
        "from depyf_report.debug import substitute; "
        "print(depyf_report.debug.__module__, depyf_report.capture.__module__, "
        "depyf_report.prepare_debug.__module__, depyf_report.install.__module__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == [
        "depyf_report.debug.session",
        "depyf_report.capture",
        "depyf_report.debug.session",
        "depyf_report.debug.bytecode_log",
    ]


# --- the parts and what each may import ------------------------------------------


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _package_imports(path: Path) -> set[str]:
    """The depyf_report modules a file imports, as absolute names; for ``from X
    import y``, X and, where y is a module, X.y."""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}"))
    return {name for name in found if name.partition(".")[0] == "depyf_report"}


def _sources(part: str) -> list[Path]:
    target = PACKAGE / part
    return [target] if target.is_file() else sorted(target.rglob("*.py"))


def _imports_of(part: str) -> dict[str, set[str]]:
    return {path.relative_to(PACKAGE).as_posix(): _package_imports(path) for path in _sources(part)}


def _inside(name: str, part: str) -> bool:
    return name == f"depyf_report.{part}" or name.startswith(f"depyf_report.{part}.")


@pytest.mark.parametrize(
    ("part", "forbidden"),
    [
        ("dump", ("capture", "render", "debug", "decompiler", "cli")),
        ("render", ("capture", "debug", "decompiler", "cli")),
        ("decompiler", ("capture", "render", "debug", "dump", "cli")),
        ("capture", ("render", "debug", "cli", "logs")),
        ("logs", ("render", "debug", "cli", "decompiler")),
    ],
)
def test_part_never_imports(part, forbidden):
    for file, names in _imports_of(part).items():
        wrong = sorted(n for n in names for other in forbidden if _inside(n, other))
        assert not wrong, f"{file} imports {wrong}"


@pytest.mark.parametrize("part", ["capture", "render", "debug", "logs"])
def test_the_dump_is_imported_as_one_package(part):
    imports = _imports_of(part)
    assert any("depyf_report.dump" in names for names in imports.values()), part
    for file, names in imports.items():
        inner = sorted(n for n in names if n.startswith("depyf_report.dump."))
        assert not inner, f"{file} imports {inner}: import them from depyf_report.dump"


def test_the_decompiler_is_used_through_its_public_package():
    for part in ("capture", "render", "debug", "dump", "cli.py", "__init__.py"):
        for file, names in _imports_of(part).items():
            inner = sorted(n for n in names if n.startswith("depyf_report.decompiler."))
            assert not inner, f"{file} imports {inner}: use depyf_report.decompiler"


def test_the_decompile_worker_needs_the_decompiler_and_the_dump_alone():
    worker = PACKAGE / "capture" / "decompile_worker.py"
    assert _package_imports(worker) == {"depyf_report.decompiler", "depyf_report.dump"}
    tree = ast.parse(worker.read_text())
    [decompiler] = [
        n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "decompiler"
    ]
    assert [alias.name for alias in decompiler.names] == ["decompile"]


def _dump_names() -> tuple[set[str], set[str]]:
    """The file names and the folder names of a dump, as ``Layout`` spells them."""
    from depyf_report.dump import Layout  # here: the rules above hold even when it fails

    layout, sample = Layout(Path("ROOT")), "SAMPLE"
    paths = [
        layout.manifest,
        layout.function(sample),
        layout.compile(sample),
        layout.graph(sample),
        layout.view(sample),
        layout.decompiler_pid,
        layout.debug_index,
        layout.process(sample).manifest,
    ]
    parts = {p for path in paths for p in path.relative_to(layout.root).parts if sample not in p}
    files = {p for p in parts if "." in p}
    return files, parts - files


def _strings(path: Path) -> list[ast.Constant]:
    """The string constants of a file, docstrings left out."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


def test_only_the_dump_spells_the_names_of_its_files():
    files, folders = _dump_names()
    assert {"manifest.json", "decompiler.pid", "index.json"} <= files
    assert {"functions", "compiles", "graphs", "views", "debug", "processes"} <= folders
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "dump") in path.parents:
            continue
        for node in _strings(path):
            named = [f for f in files if f in node.value]
            named += [f"{d}/" for d in folders if f"{d}/" in node.value]
            if (PACKAGE / "capture") in path.parents:  # render shows these words
                named += [d for d in folders if node.value == d]
            where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
            assert not named, f"{where} spells {named}: ask depyf_report.dump.Layout"


def _imports_in_functions(path: Path) -> list[int]:
    lines = []
    for scope in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            lines += [
                node.lineno
                for node in ast.walk(scope)
                if isinstance(node, ast.Import | ast.ImportFrom)
            ]
    return sorted(set(lines))


@pytest.mark.parametrize("part", ["dump", "render", "debug", "logs"])
def test_imports_are_at_the_top_of_each_module(part):
    for path in _sources(part):
        lines = _imports_in_functions(path)
        assert not lines, f"{path.relative_to(PACKAGE)} imports inside a function at {lines}"


# -- the decompiler: seven stages, each importing only the stages before it ----------

DECOMPILER = PACKAGE / "decompiler"
STAGES = ["bytecode", "rewrites", "graph", "simulation", "structuring", "tidy", "pipeline"]


@functools.cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def _imports(path: Path):
    """(node, absolute module names) for every import statement in ``path``, at any
    depth; ``from . import x`` names the submodule ``x`` where there is one."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.Import):
            yield node, [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
            source = ".".join([*base, node.module] if node.module else base)
            if node.level == 0:
                source = node.module
            names = [f"{source}.{a.name}" for a in node.names]
            yield node, [n if _is_module(n) else source for n in names]


def _stage(module: str) -> int | None:
    parts = module.split(".")
    if parts[:2] != ["depyf_report", "decompiler"] or len(parts) < 3:
        return None
    return STAGES.index(parts[2]) if parts[2] in STAGES else None


def _decompiler_sources():
    return sorted(DECOMPILER.rglob("*.py"))


def test_every_decompiler_module_lives_in_a_stage():
    loose = [p.name for p in DECOMPILER.glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"modules outside the seven stages: {loose}"
    assert sorted(p.name for p in DECOMPILER.iterdir() if (p / "__init__.py").is_file()) == sorted(
        STAGES
    )


def test_each_stage_imports_only_the_stages_before_it():
    wrong = []
    for path in _decompiler_sources():
        own = _stage(_module_name(path))
        for node, targets in _imports(path):
            for target in targets:
                stage = _stage(target)
                if own is not None and stage is not None and stage > own:
                    wrong.append(f"{_module_name(path)}:{node.lineno} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_decompiler_imports_sit_at_the_top_of_their_module():
    # An import inside a function or under an ``if`` hides a dependency, often a cycle.
    hidden = []
    for path in _decompiler_sources():
        top = {id(n) for n in _parsed(path).body}
        for node, _ in _imports(path):
            if id(node) not in top:
                hidden.append(f"{_module_name(path)}:{node.lineno}")
    assert not hidden, f"imports below the top level: {hidden}"


def test_decompiler_modules_form_no_cycle():
    graph = {}
    for path in _decompiler_sources():
        graph[_module_name(path)] = {
            t for _, targets in _imports(path) for t in targets if t.startswith("depyf_report.")
        }
    done, active = set(), []

    def visit(module):
        if module in active:
            cycle = [*active[active.index(module) :], module]
            raise AssertionError("import cycle: " + " -> ".join(cycle))
        if module in done:
            return
        active.append(module)
        for target in sorted(graph.get(module, ())):
            visit(target)
        active.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)


def test_no_module_imports_another_modules_private_name():
    private = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node, _ in _imports(path):
            if isinstance(node, ast.ImportFrom) and (
                node.level or "depyf_report" in (node.module or "")
            ):
                names = [
                    a.name for a in node.names if a.name.startswith("_") and a.name != "__version__"
                ]
                private += [f"{_module_name(path)}:{node.lineno} {n}" for n in names]
    assert not private, f"private names imported from another module: {private}"


def test_only_the_bytecode_stage_reads_the_python_version():
    readers = []
    for path in _decompiler_sources():
        if _stage(_module_name(path)) == STAGES.index("bytecode"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr in ("version_info", "hexversion"):
                readers.append(f"{_module_name(path)}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and any(a.name == "PY" for a in node.names):
                readers.append(f"{_module_name(path)}:{node.lineno} imports PY")
    assert not readers, f"the Python version read outside bytecode/: {readers}"


def test_opcode_handlers_are_registered_from_one_place():
    handlers = DECOMPILER / "simulation" / "handlers"
    registering = set()
    for path in _decompiler_sources():
        text = path.read_text()
        if "@handles(" in text:
            assert path.parent == handlers, f"{_module_name(path)} registers handlers"
            registering.add(path.stem)
    listed = {
        t.rpartition(".")[2] for _, targets in _imports(handlers / "__init__.py") for t in targets
    }
    assert registering <= listed, (
        f"handler modules not imported by handlers/: {registering - listed}"
    )
    package = {
        t for _, targets in _imports(DECOMPILER / "simulation" / "__init__.py") for t in targets
    }
    assert "depyf_report.decompiler.simulation.handlers" in package


def _ast_fields() -> set[str]:
    classes = [c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.AST)]
    fields = {f for c in classes for f in (*c._fields, *getattr(c, "_attributes", ()))}
    return fields | {"_fields", "default_value"}  # ast's own, and a field of 3.13's


def _declared_attributes() -> set[str]:
    """Attributes a decompiler class declares: in its body or as ``self.x`` anywhere."""
    names = set()
    for path in _decompiler_sources():
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        names.add(item.target.id)
                    if isinstance(item, ast.Assign):
                        names.update(t.id for t in item.targets if isinstance(t, ast.Name))
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                names.add(node.attr)
    return names


def _named_attribute(node) -> str | None:
    """The literal name in ``getattr(x, "name", ...)`` and the like, x not a module."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id not in ("getattr", "setattr", "hasattr") or len(node.args) < 2:
        return None
    owner, name = node.args[:2]
    if isinstance(owner, ast.Name) and owner.id in ("ast", "dis", "py310"):
        return None
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None


def test_decompiler_passes_hand_facts_over_in_declared_fields():
    # A fact set on a node as an attribute no class declares, and read back with
    # getattr, is a contract nobody can see: declare it (simulation/nodes.py).
    known = _ast_fields() | _declared_attributes()
    ad_hoc = []
    for path in _decompiler_sources():
        for node in ast.walk(_parsed(path)):
            stored = isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
            if stored and node.attr not in known:
                ad_hoc.append(f"{_module_name(path)}:{node.lineno} .{node.attr}")
            name = _named_attribute(node)
            if name is not None and name not in known and not name.startswith(("__", "co_")):
                ad_hoc.append(f"{_module_name(path)}:{node.lineno} {name!r}")
    assert not ad_hoc, f"attributes no class declares: {ad_hoc}"
