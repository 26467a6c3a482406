import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from synthetic import make_dump

from depyf_report.render import render


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """A rendered synthetic dump: resume functions, a recompile, kernels."""
    root = tmp_path_factory.mktemp("render")
    dump = make_dump(root / "dump", graphs=6)
    return render(dump, root / "site", progress=False).parent


@pytest.fixture(scope="session")
def markup_site(tmp_path_factory) -> Path:
    """A two-rank dump whose names, paths and guard keys hold HTML markup."""
    root = tmp_path_factory.mktemp("markup")
    dump = make_dump(root / "dump", graphs=3, processes=2, markup=True)
    return render(dump, root / "site", progress=False).parent
