"""Every public module's docstring examples run and give what they show."""

import doctest
import importlib

import pytest

MODULES = [
    "mo._pytree", "mo._quant.encoding", "mo._quant.gguf", "mo._record", "mo.checkpoint",
    "mo.compilation", "mo.compiler", "mo.driver", "mo.dtype", "mo.functional", "mo.graph.dim",
    "mo.graph.graph", "mo.graph.ops", "mo.graph.quantization", "mo.graph.type", "mo.sharding",
    "mo.tensor",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no docstring examples"
    assert result.failed == 0
