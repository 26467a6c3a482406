"""Every import form, at module level and inside functions."""

from __future__ import annotations

import os
import os.path
import xml.dom.minidom as minidom
from collections import OrderedDict
from collections import defaultdict as dd
from json import (
    dumps,
    loads as parse_json,
)
from string import *  # noqa: F403
from sys import maxsize

import email.mime.text


def module_level_names():
    return (
        os.sep,
        os.path.basename("/a/b"),
        minidom.__name__,
        OrderedDict.__name__,
        dd.__name__,
        dumps([1]),
        parse_json("[2]"),
        ascii_lowercase[:3],  # noqa: F405
        maxsize > 0,
        email.mime.text.__name__,
    )


def local_imports():
    import math
    import urllib.parse
    import importlib.util as util
    from itertools import chain, islice as take
    from os import path as p

    return (
        math.floor(2.5),
        urllib.parse.quote("a b"),
        util.__name__,
        list(take(chain([1], [2, 3]), 2)),
        p.join("a", "b"),
    )


def relative_import():
    from . import sibling  # noqa: F401

    return "imported"


def relative_from_parent():
    from ..package import thing  # noqa: F401

    return "imported"


def missing_module():
    import module_that_does_not_exist  # noqa: F401


def missing_name():
    from os import name_that_does_not_exist  # noqa: F401


def annotations_are_strings(x: SomeUndefinedType) -> AnotherOne:  # noqa: F821
    return x


def annotations_of():
    return annotations_are_strings.__annotations__


CASES = [
    ("module_level_names", ()),
    ("local_imports", ()),
    ("relative_import", ()),
    ("relative_from_parent", ()),
    ("missing_module", ()),
    ("missing_name", ()),
    ("annotations_of", ()),
]
