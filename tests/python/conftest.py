"""Shared fixtures: an MLIR context with mo registered."""

import pytest

from mo._mlir import ir


@pytest.fixture
def ctx():
    with ir.Context() as context, ir.Location.unknown():
        yield context
