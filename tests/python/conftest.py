"""Shared fixtures: an MLIR context with mo registered."""

import pytest


@pytest.fixture
def ctx():
    # Imported here, not at module level, so the pure-Python tests
    # (dtype, driver, dims, pytrees, layouts) run without the native extension.
    from mo._mlir import ir

    with ir.Context() as context, ir.Location.unknown():
        yield context
