"""The hostile-input suite (cases in hostile_cases.py): every case gets its
documented exception or numpy's answer, and none kills the process.

All cases run in worker subprocesses, in order, before the first assertion: a
worker reports each case's outcome as a JSON line; if one dies (a signal, an
abort) or hangs, the case it was running is recorded as a crash and a new
worker goes on with the next case.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from crashsafe import run_cases  # noqa: E402
from hostile_cases import CASES  # noqa: E402

PER_CASE_SECONDS = 120

_WORKER = r"""
import builtins, json, sys, tempfile, traceback
from pathlib import Path
import numpy as np
from mo import checkpoint, compilation, compiler, engine
from mo import functional as F
from mo.driver import CPU, GPU, Buffer
from mo.dtype import DType
from mo.graph import DeviceRef, Graph, TensorType, ops
from mo.graph.dim import Dim
from mo.sharding import BufferLayout, TensorLayout
from mo.tensor import Tensor

CASES = [json.loads(line) for line in open(sys.argv[1])]

f32, f64, bf16, b1 = DType.float32, DType.float64, DType.bfloat16, DType.bool
i8, i32, i64, u8 = DType.int8, DType.int32, DType.int64, DType.uint8
compile = compilation.compile


def L(dtype, shape, device=None):
    return TensorLayout(dtype, shape, CPU() if device is None else device)


def same(out, want):
    got = out.to_numpy() if hasattr(out, "to_numpy") else np.asarray(out)
    want = np.asarray(want)
    assert got.dtype == want.dtype, f"dtype {got.dtype}, expected {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape}, expected {want.shape}"
    assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f"), f"{got} != {want}"


import faulthandler
for i in range(int(sys.argv[2]), len(CASES)):
    print(json.dumps({"start": i}), flush=True)
    faulthandler.dump_traceback_later(float(sys.argv[3]), exit=False)
    with tempfile.TemporaryDirectory() as d:
        scope = dict(globals(), tmp=Path(d))
        try:
            exec(builtins.compile(CASES[i]["code"], CASES[i]["name"], "exec"), scope)
            result = {"i": i, "raised": None}
        except AssertionError as e:
            result = {"i": i, "raised": ["AssertionError"], "message": str(e),
                      "trace": traceback.format_exc()[-1500:]}
        except Exception as e:
            result = {"i": i, "raised": [c.__name__ for c in type(e).__mro__],
                      "message": str(e), "trace": traceback.format_exc()[-1500:]}
    print(json.dumps(result), flush=True)
"""


def _run_all(cases: list) -> dict[int, dict]:
    records, crashes = run_cases(_WORKER, [{"name": c.name, "code": c.code} for c in cases],
                                 PER_CASE_SECONDS)
    outcome = {i: r[-1] for i, r in records.items()}
    outcome.update({i: {"i": i, "crashed": c["rc"], **c} for i, c in crashes.items()})
    return outcome


@pytest.fixture(scope="module")
def outcomes() -> dict[int, dict]:
    return _run_all(CASES)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c.name for c in CASES])
def test_hostile_input(outcomes, index):
    case, got = CASES[index], outcomes[index]
    if "crashed" in got:
        how = "hung" if got["hung"] else f"died with code {got['crashed']}"
        pytest.fail(f"{how} on:\n{case.code}\n{got['stderr']}")
    if case.raises is None:
        assert got["raised"] is None, f"raised {got['raised'][0]}: {got['message']}\n" \
                                      f"{got['trace']}"
        return
    assert got["raised"] is not None, f"expected {case.raises}, but it ran:\n{case.code}"
    assert case.raises in got["raised"], (
        f"expected {case.raises}, got {got['raised'][0]}: {got['message']}\n{got['trace']}")
    assert re.search(case.match, got["message"]), (
        f"{case.raises} message {got['message']!r} does not match {case.match!r}")


def test_the_harness_reports_a_crash():
    """A case that kills its worker is a crash of that case, and the cases
    after it still run (the harness itself can fail)."""
    from hostile_cases import Case

    results = _run_all([Case("fine", "x = 1"), Case("abort", "import os; os.abort()"),
                        Case("after", "raise ValueError('later')", "ValueError", "later")])
    assert results[0]["raised"] is None
    assert results[1]["crashed"] < 0
    assert results[2]["raised"][0] == "ValueError"
