"""mo's OpenMP teams as the runtime runs them: a graph whose kernels all run
on the caller's thread starts no team, and a team whose worker woke on the
caller's CPU is spread over distinct CPUs before the graph runs, with no
thread left pinned. In subprocesses: each needs a fresh OpenMP runtime."""

import os
import subprocess
import sys

import pytest

PRELUDE = """
import os, time
import numpy as np
from mo import compilation, compiler
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout

def tasks():
    return set(os.listdir("/proc/self/task"))

def cpu_of(tid):  # the CPU the thread last ran on (proc(5): stat, field 39)
    return int(open(f"/proc/self/task/{tid}/stat").read().rsplit(")", 1)[1].split()[36])

def compile(fn, *shape):
    return compilation.compile(fn)(TensorLayout(DType.float32, list(shape), CPU()))

assert compiler.num_threads() == 2
"""

SERIAL_STARTS_NO_TEAM = PRELUDE + """
small = compile(lambda x: x * 2.0 + 1.0, 4, 4)
big = compile(lambda x: x * 2.0 + 1.0, 2048, 1024)
before = tasks()
out = small(np.ones((4, 4), np.float32))
assert np.all(out.to_numpy() == 3.0)
assert tasks() == before, ("a serial graph started threads", tasks() - before)
out = big(np.ones((2048, 1024), np.float32))
assert np.all(out.to_numpy() == 3.0)
assert len(tasks() - before) == 1, ("a parallel graph forks a team of 2", tasks() - before)
print("ok")
"""

TEAM_SPREAD = PRELUDE + """
import mo.functional as F
run = compile(F.softmax, 1024, 1024)
x = np.random.default_rng(0).standard_normal((1024, 1024)).astype(np.float32)
e = np.exp(x - x.max(-1, keepdims=True))
want = e / e.sum(-1, keepdims=True)
before = tasks()
run(x)
(worker,) = tasks() - before
allowed = os.sched_getaffinity(0)
main = str(os.getpid())
for trial in range(5):
    # The worker on the caller's CPU, then asleep (KMP_BLOCKTIME is 1 ms).
    here = cpu_of(main)
    os.sched_setaffinity(int(worker), {here})
    os.sched_setaffinity(int(worker), allowed)
    time.sleep(0.02)
    out = run(x)
    assert cpu_of(worker) != cpu_of(main), (trial, cpu_of(worker), cpu_of(main))
    assert os.sched_getaffinity(int(worker)) == allowed, "the worker was left pinned"
    assert os.sched_getaffinity(0) == allowed, "the caller was pinned"
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-7)
print("ok")
"""


def _run(script):
    env = dict(os.environ, MO_CACHE="0", MO_NUM_THREADS="2")
    env.pop("KMP_BLOCKTIME", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", \
        (done.returncode, done.stderr[-3000:])


def test_serial_graph_starts_no_team():
    """A graph whose kernels were all serialized (small) forks no team: its
    calls start no OpenMP thread, where a parallel graph's start one."""
    _run(SERIAL_STARTS_NO_TEAM)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to spread over")
def test_team_is_spread_after_it_slept():
    """A worker that sleeps on the caller's CPU runs elsewhere once the next
    call starts; neither thread stays pinned; the results are right. (On a
    quiet machine Linux often wakes it elsewhere by itself; the benchmark's
    busy one did not: see cpp/lib/Runtime/OpenMP.h.)"""
    _run(TEAM_SPREAD)
