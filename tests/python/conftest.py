"""Shared fixtures: an MLIR context with mo registered; graphs compiled for 1
and 2 threads."""

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
    with pytest.MonkeyPatch.context() as env:  # (session-wide: not the monkeypatch fixture)
        env.setenv("MO_VERIFY_EACH", "1")
        yield


@pytest.fixture(autouse=True, scope="session")
def _private_compile_cache(tmp_path_factory):
    """The suite compiles into a cache of its own (not the user's ~/.cache/mo),
    empty at the start, so that every graph is compiled at least once."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("MO_CACHE_DIR", str(tmp_path_factory.mktemp("mo-cache")))
        yield


@pytest.fixture(params=[1, 2], ids=["1-thread", "2-threads"])
def threads(request):
    """Graphs compiled while the test runs take this many threads."""
    from mo import compiler

    compiler.set_num_threads(request.param)
    yield request.param
    compiler.set_num_threads(None)


@pytest.fixture
def failing_schedules(monkeypatch):
    """Every scheduled CPU codegen fails with "a schedule went wrong", so that
    graphs compile through the fallback without schedules; nothing comes
    from the compile cache. Yields the real compiler._run_pipeline."""
    from mo import compiler

    real = compiler._run_pipeline

    def failing(module, pipeline):
        if pipeline.startswith("mo-cpu-kernels") and "schedules=0" not in pipeline:
            raise compiler.CompileError(f"{pipeline} failed:\nerror: a schedule went wrong")
        return real(module, pipeline)

    monkeypatch.setattr(compiler, "_run_pipeline", failing)
    monkeypatch.setenv("MO_CACHE", "0")  # compiled here, not found compiled
    yield real
