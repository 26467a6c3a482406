"""A wheel built from the tree carries templates/ and renders from them."""

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


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
    probe = (
        "import depyf_report.resources as r, jinja2, json, pathlib;"
        "t = r.templates();"
        "assert 'site-packages' in str(t), t;"
        "env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(t)));"
        "print(env.get_template('base.html').render(title='ok'));"
        "json.loads(r.schema_text())"
    )
    out = subprocess.run(
        [python, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert "<title>ok · depyf-report</title>" in out
