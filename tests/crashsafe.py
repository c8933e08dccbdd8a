"""Runs cases in worker processes so that a case that kills its process (a
signal, an abort) or hangs is a result, not the end of the run.

The worker is Python source run as ``python -c WORKER CASES START SECONDS``:
it reads the JSON lines of the CASES file, runs them from index START on, and
prints ``{"start": i}`` before case i and any ``{"i": i, ...}`` records after
it. A hang's report holds the worker's stderr, where faulthandler (armed for
SECONDS per case with ``faulthandler.dump_traceback_later``) wrote every
thread's stack.
When a worker dies or is silent for ``per_case`` seconds, the case it was in
is recorded as crashed and a new worker goes on with the next one. Used by
tests/python/test_hostile.py and tests/fuzz/fuzz_ir.py.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import tempfile
from pathlib import Path


def _user_environment() -> dict[str, str]:
    """The environment less the suite's own checks (MO_VERIFY_EACH, set by
    conftest.py): hostile input must be survived as users run mo."""
    env = dict(os.environ)
    env.pop("MO_VERIFY_EACH", None)
    return env


def run_cases(worker: str, cases: list[dict], per_case: float
              ) -> tuple[dict[int, list[dict]], dict[int, dict]]:
    """(records by case, crashes by case: {"rc", "hung", "stderr"})."""
    records: dict[int, list[dict]] = {}
    crashes: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        inputs, errors = Path(tmp) / "cases.jsonl", Path(tmp) / "stderr"
        inputs.write_text("".join(json.dumps(c) + "\n" for c in cases))
        start = 0
        while start < len(cases):
            with open(errors, "w") as err:
                p = subprocess.Popen([sys.executable, "-c", worker, str(inputs), str(start),
                                      str(per_case * 0.9)],
                                     stdout=subprocess.PIPE, stderr=err, bufsize=0,
                                     env=_user_environment())
            current, hung, pending = None, False, b""
            # Raw reads, split here: a buffered readline could hold a line
            # select() no longer sees (and the case would be misnamed).
            with selectors.DefaultSelector() as sel:
                sel.register(p.stdout, selectors.EVENT_READ)
                while True:
                    if not sel.select(per_case):
                        p.kill()
                        hung = True
                        break
                    chunk = os.read(p.stdout.fileno(), 1 << 16)
                    if not chunk:
                        break
                    *lines, pending = (pending + chunk).split(b"\n")
                    for line in lines:
                        if line.startswith(b"{"):
                            record = json.loads(line)
                            if "start" in record:
                                current = record["start"]
                            else:
                                records.setdefault(record["i"], []).append(record)
            rc = p.wait()
            if rc == 0 and not hung and current in (None, len(cases) - 1):
                break
            stderr = ("hang\n" if hung else "") + errors.read_text(errors="replace")[-6000:]
            if current is None:
                raise RuntimeError(f"the worker failed before its first case:\n{stderr}")
            crashes[current] = {"rc": rc, "hung": hung, "stderr": stderr}
            start = current + 1
    return records, crashes

