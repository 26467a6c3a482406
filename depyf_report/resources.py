"""Files shipped inside the package: templates, static assets, the dump schema."""

from importlib import resources
from importlib.abc import Traversable


def templates() -> Traversable:
    """The top-level ``templates/`` folder, mapped to ``depyf_report.templates``."""
    return resources.files("depyf_report.templates")


def schema_text() -> str:
    """The JSON Schema of the dump, as text."""
    return resources.files("depyf_report.dump").joinpath("schema.json").read_text()
