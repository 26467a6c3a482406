"""Functions and frames are classed by their file: user, third-party, stdlib, torch."""

import logging
import os
import sys

import pytest

from depyf_report.origin import Origin, function_origin, origin_of


@pytest.mark.parametrize(
    ("filename", "origin"),
    [
        ("/home/ana/project/train.py", Origin.USER),
        ("train.py", Origin.USER),
        ("<string>", Origin.USER),
        (None, Origin.USER),
        ("/home/ana/Lib/model.py", Origin.USER),  # a folder named Lib, on Linux
        ("/usr/lib/python3.11/logging/__init__.py", Origin.STDLIB),
        ("/root/.pyenv/versions/3.13.0/lib/python3.13/contextlib.py", Origin.STDLIB),
        ("/usr/lib/python313t.zip/os.py", Origin.STDLIB),
        ("/usr/lib64/python3.12/functools.py", Origin.STDLIB),
        ("<frozen runpy>", Origin.STDLIB),
        ("C:\\Python311\\Lib\\logging\\__init__.py", Origin.STDLIB),
        (
            "/venv/lib/python3.11/site-packages/transformers/models/llama/modeling_llama.py",
            Origin.THIRD_PARTY,
        ),
        ("/usr/lib/python3/dist-packages/numpy/core/numeric.py", Origin.THIRD_PARTY),
        ("C:\\venv\\Lib\\site-packages\\timm\\layers\\mlp.py", Origin.THIRD_PARTY),
        ("/venv/lib/python3.11/site-packages/torch/_dynamo/eval_frame.py", Origin.TORCH),
        ("/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", Origin.TORCH),
        ("/venv/lib/python3.11/site-packages/torchvision/ops/boxes.py", Origin.THIRD_PARTY),
        ("/home/dev/pytorch/torch/_inductor/graph.py", Origin.TORCH),
    ],
)
def test_each_kind_of_file(filename, origin):
    assert origin_of(filename) is origin


def test_this_interpreters_own_files():
    assert origin_of(logging.__file__) is Origin.STDLIB
    assert origin_of(os.__file__) is Origin.STDLIB
    assert origin_of(pytest.__file__) is Origin.THIRD_PARTY
    assert origin_of(__file__) is Origin.USER
    assert sys.prefix  # the checks above hold in a venv and outside one


def test_functions_dynamo_made_are_torch_wherever_they_say_they_live():
    qualname = "OutputGraph.install_resume_function_global.<locals>._make_fn"
    assert function_origin("/home/ana/project/train.py", qualname) is Origin.TORCH
    assert function_origin("/home/ana/project/train.py", "train_step") is Origin.USER
