"""A wheel built from the tree carries templates/ and the dump schema, and renders."""

import subprocess
import sys
import venv
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_of_the_tree_is_in_the_wheel():
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(settings["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "depyf_report").rglob("__init__.py")
    }
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"


@pytest.mark.slow
def test_built_wheel_ships_templates(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = (tmp_path / "dist").glob("depyf_report-*.whl")
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # Render needs no torch, so the fresh environment proves templates load
    # from the installed wheel, not from this checkout.
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "jinja2", "pygments", "markdown"], check=True
    )
    # Render a synthetic dump with the installed package, from outside the
    # checkout, so every template and static file must come from the wheel.
    probe = (
        "import sys, depyf_report.resources as r, depyf_report.render as render;"
        f"sys.path.insert(0, {str(ROOT / 'tests' / 'render')!r});"
        "from synthetic import make_dump;"
        "assert 'site-packages' in str(r.templates()), r.templates();"
        "assert '$defs' in r.schema_text();"
        "index = render.render(make_dump('dump', graphs=2), 'site', progress=False);"
        "print(index.read_text())"
    )
    out = subprocess.run(
        [python, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert "What torch.compile did" in out
    assert (tmp_path / "site" / "static").is_dir()
