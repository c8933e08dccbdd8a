"""Runs cases in worker processes so that a case that kills its process (a
signal, an abort) or hangs is a result, not the end of the run.

The worker is Python source run as ``python -c WORKER CASES START``: it reads
the JSON lines of the CASES file, runs them from index START on, and prints
``{"start": i}`` before case i and any ``{"i": i, ...}`` records after it.
When a worker dies or is silent for ``per_case`` seconds, the case it was in
is recorded as crashed and a new worker goes on with the next one. Used by
tests/python/test_hostile.py and tests/fuzz/fuzz_ir.py.
"""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
import tempfile
from pathlib import Path


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
                p = subprocess.Popen([sys.executable, "-c", worker, str(inputs), str(start)],
                                     stdout=subprocess.PIPE, stderr=err, text=True)
            current, hung = None, False
            with selectors.DefaultSelector() as sel:
                sel.register(p.stdout, selectors.EVENT_READ)
                while True:
                    if not sel.select(per_case):
                        p.kill()
                        hung = True
                        break
                    line = p.stdout.readline()
                    if not line:
                        break
                    if line.startswith("{"):
                        record = json.loads(line)
                        if "start" in record:
                            current = record["start"]
                        else:
                            records.setdefault(record["i"], []).append(record)
            rc = p.wait()
            if rc == 0 and not hung and current in (None, len(cases) - 1):
                break
            stderr = "hang" if hung else errors.read_text(errors="replace")[-3000:]
            if current is None:
                raise RuntimeError(f"the worker failed before its first case:\n{stderr}")
            crashes[current] = {"rc": rc, "hung": hung, "stderr": stderr}
            start = current + 1
    return records, crashes
