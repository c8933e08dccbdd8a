"""Shared fixtures: an MLIR context with mo registered."""

import pytest


@pytest.fixture
def ctx():
    # Imported here, not at module level, so the pure-Python tests
    # (dtype, driver, dims, pytrees, layouts) run without the native extension.
    from mo._mlir import ir

    with ir.Context() as context, ir.Location.unknown():
        yield context


@pytest.fixture(autouse=True, scope="session")
def _verify_each_pass():
    """Compiles verify the IR after every pass (users' compiles verify it once
    at the end: see compiler._run_pipeline), so that a pass breaking the IR
    fails here with the verifier's message."""
    import os

    previous = os.environ.get("MO_VERIFY_EACH")
    os.environ["MO_VERIFY_EACH"] = "1"
    yield
    if previous is None:
        os.environ.pop("MO_VERIFY_EACH", None)
    else:
        os.environ["MO_VERIFY_EACH"] = previous


@pytest.fixture(autouse=True, scope="session")
def _private_compile_cache(tmp_path_factory):
    """The suite compiles into a cache of its own (not the user's ~/.cache/mo),
    empty at the start, so that every graph is compiled at least once."""
    import os

    previous = os.environ.get("MO_CACHE_DIR")
    os.environ["MO_CACHE_DIR"] = str(tmp_path_factory.mktemp("mo-cache"))
    yield
    if previous is None:
        os.environ.pop("MO_CACHE_DIR", None)
    else:
        os.environ["MO_CACHE_DIR"] = previous
