"""A bounded, seeded run of the IR fuzzer (tests/fuzz/fuzz_ir.py): zero
crashes in mo-opt (text and bytecode) and in mo.compiler.lower.

The seed is fixed, so a failure reproduces with
``python tests/fuzz/fuzz_ir.py --seed 2026 --cases N``; a crasher it finds
becomes a regression case in tests/ir or hostile_cases.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
import fuzz_ir  # noqa: E402

SEED = 2026
# Mutants per target: the text ones are batched (about 30 s in all on two
# cores); bytecode costs a process each. MO_FUZZ_CASES runs more.
CASES = int(os.environ.get("MO_FUZZ_CASES", "400"))


def _report(crashes: list[dict]) -> str:
    return "\n".join(f"{c['target']} {c.get('options', '')} rc={c['rc']}\n"
                     f"input: {c['input'][:400]!r}\n{c['output'][-600:]}" for c in crashes)


@pytest.mark.parametrize("target", ["mo-opt", "python"])
def test_text_mutants_do_not_crash(target):
    crashes = fuzz_ir.run(SEED, CASES, {target})
    assert not crashes, _report(crashes)


def test_bytecode_mutants_do_not_crash():
    crashes = fuzz_ir.run(SEED, max(CASES // 10, 20), {"bytecode"})
    assert not crashes, _report(crashes)


def test_the_mutants_reach_mo():
    """Mutants are near misses, not noise: some still parse and lower."""
    import random

    from mo import compiler

    rng = random.Random(SEED)
    seeds = fuzz_ir.corpus()
    words = fuzz_ir._vocabulary(seeds)
    lowered = 0
    for seed in [s for s in seeds if not s.options][:60]:
        try:
            compiler.lower(fuzz_ir.mutate(rng, seed.text, words).decode("utf-8", "replace"))
            lowered += 1
        except (compiler.CompileError, ValueError):
            pass
    assert lowered > 0


def test_a_crash_is_detected():
    """The detector itself can fail: a signal and LLVM's crash output count."""
    assert fuzz_ir._crashed(-11, "")
    assert fuzz_ir._crashed(1, "Assertion `x' failed.")
    assert not fuzz_ir._crashed(1, "error: expected ')'")


@pytest.mark.parametrize("name", sorted(p.name for p in (Path(fuzz_ir.ROOT) / "tests" / "fuzz"
                                                         / "regressions").iterdir()))
def test_regressions_are_refused(name):
    """Bytecode the fuzzer found to crash (an assertion in MLIR's reader) or
    hang (a loop over a count from a flipped bit) the reader: an error."""
    import subprocess

    path = Path(fuzz_ir.ROOT) / "tests" / "fuzz" / "regressions" / name
    p = subprocess.run([sys.executable, "-m", "mo._opt", str(path), "-o", os.devnull],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stderr[-2000:]
    assert "mo-opt refuses it" in p.stderr
    assert not fuzz_ir._crashed(p.returncode, p.stderr)
