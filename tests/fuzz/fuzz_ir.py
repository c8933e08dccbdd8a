"""A seeded mutation fuzzer for mo's IR entry points.

It mutates the lit inputs (tests/ir, split at `// -----`): truncation, bit
flips, deleted, duplicated and swapped spans, huge and negative numbers, tokens
swapped for others of the corpus, deep nesting, and the same byte mutations on
their MLIR bytecode. Each mutant goes to

- ``mo-opt`` with the pass options of its file's first RUN line (mutants are
  batched through ``--split-input-file``; a crashing batch is bisected), and
- ``mo-opt`` again for the bytecode mutants, one process each, and
- the Python entry point for IR text, ``mo.compiler.lower``, in a worker
  process (mo's Python API reads no user bytecode: artifacts carry a
  checksum that is verified before their bytecode is read).

A crash is a signal, an exit code above 1, or LLVM's crash output (an
assertion, ``LLVM ERROR``, a stack dump); in the Python worker also any
exception other than mo's documented ``CompileError``/``ValueError``;
anywhere, a hang. The same
seed gives the same mutants. Run it longer than the test suite does with

    python tests/fuzz/fuzz_ir.py --seed 7 --cases 5000

Crashers are printed and, with ``--save DIR``, written out; each one found
becomes a regression case in ``tests/ir`` or ``tests/python``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from crashsafe import run_cases  # noqa: E402
CRASH_MARKERS = ("Assertion", "LLVM ERROR", "Stack dump", "PLEASE submit a bug report",
                 "UNREACHABLE", "Segmentation fault")
HUGE = ["9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "18446744073709551616", "4294967296", "2147483648", "-1", "0", "1e308", "-0",
        "99999999999999999999999999999", "0x7fffffffffffffff", "65536"]
_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_.$]*|%[A-Za-z0-9_#]+|@[A-Za-z0-9_]+|\d+")
_NUMBER = re.compile(rb"-?\d+")


@dataclass
class Seed:
    text: bytes
    options: list[str]  # mo-opt's pass options from the RUN line
    origin: str


def corpus() -> list[Seed]:
    """Every `// -----` chunk of the lit inputs, with its file's pass options."""
    seeds = []
    for path in sorted((ROOT / "tests" / "ir").rglob("*.mlir")):
        # hostile-input.mlir holds inputs that crash MLIR's parsers by design
        # (bytecode_of parses seeds in this process).
        if "Output" in path.parts or path.name == "hostile-input.mlir":
            continue
        text = path.read_text()
        run = re.search(r"^// RUN: mo-opt %s(.*?)(\||$)", text, re.M)
        options = [o for o in shlex.split(run.group(1))
                   if o not in ("--split-input-file", "--verify-diagnostics")] if run else []
        for i, chunk in enumerate(re.split(r"^// -----\s*$", text, flags=re.M)):
            body = "\n".join(line for line in chunk.splitlines()
                             if not line.lstrip().startswith("// "))
            if body.strip():
                seeds.append(Seed(body.encode(), options, f"{path.relative_to(ROOT)}#{i}"))
    return seeds


def _vocabulary(seeds: list[Seed]) -> list[bytes]:
    words = sorted({m.group(0) for s in seeds for m in _TOKEN.finditer(s.text)})
    return words or [b"x"]


def mutate(rng: random.Random, data: bytes, words: list[bytes]) -> bytes:
    """One to three random mutations of `data`."""
    for _ in range(rng.randint(1, 3)):
        if not data:
            return data
        n = len(data)
        i, j = sorted((rng.randrange(n), rng.randrange(n + 1)))
        kind = rng.randrange(9)
        if kind == 0:  # truncate
            data = data[:i]
        elif kind == 1:  # flip a bit
            data = data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
        elif kind == 2:  # delete a span
            data = data[:i] + data[min(j, i + 32):]
        elif kind == 3:  # duplicate a span
            data = data[:j] + data[i:min(j, i + 200)] + data[j:]
        elif kind == 4:  # a number becomes huge, negative or zero
            numbers = list(_NUMBER.finditer(data))
            if numbers:
                m = rng.choice(numbers)
                data = data[:m.start()] + rng.choice(HUGE).encode() + data[m.end():]
        elif kind == 5:  # a token becomes another of the corpus
            tokens = list(_TOKEN.finditer(data))
            if tokens:
                m = rng.choice(tokens)
                data = data[:m.start()] + rng.choice(words) + data[m.end():]
        elif kind == 6:  # deep nesting
            depth = rng.choice([64, 200, 600, 5000])
            left, right = rng.choice([(b"(", b")"), (b"[", b"]"), (b"{", b"}"), (b"<", b">")])
            data = data[:i] + left * depth + data[i:j] + right * depth + data[j:]
        elif kind == 7:  # a punctuation byte inserted
            data = data[:i] + bytes([rng.choice(b'{}()<>[],:=%@^!#"?*-+x0 \n')]) + data[i:]
        else:  # swap two lines
            lines = data.split(b"\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            data = b"\n".join(lines)
    return data


def _crashed(rc: int, output: str) -> bool:
    return rc < 0 or rc > 1 or any(m in output for m in CRASH_MARKERS)


def _mo_opt(options: list[str], chunks: list[bytes]) -> tuple[int, str]:
    with tempfile.NamedTemporaryFile(suffix=".mlir", delete=False) as f:
        f.write(b"\n// -----\n".join(chunks))
    try:
        p = subprocess.run([sys.executable, "-m", "mo._opt", "--split-input-file", *options,
                            f.name, "-o", os.devnull], capture_output=True, timeout=120)
        return p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "timeout (a hang)"
    finally:
        os.unlink(f.name)


def fuzz_mo_opt(mutants: list[tuple[Seed, bytes]], batch: int = 64) -> list[dict]:
    """Crashers among text mutants run through mo-opt, batched per options."""
    by_options: dict[tuple, list[bytes]] = {}
    for seed, text in mutants:
        if b"// -----" not in text:
            by_options.setdefault(tuple(seed.options), []).append(text)
    crashes: list[dict] = []

    def bisect(options: list[str], chunks: list[bytes]) -> None:
        rc, out = _mo_opt(options, chunks)
        if not _crashed(rc, out):
            return
        if len(chunks) == 1:
            crashes.append({"target": "mo-opt", "options": options, "rc": rc,
                            "input": chunks[0].decode(errors="replace"), "output": out[-2000:]})
            return
        half = len(chunks) // 2
        bisect(options, chunks[:half])
        bisect(options, chunks[half:])

    for options, chunks in sorted(by_options.items()):
        for k in range(0, len(chunks), batch):
            bisect(list(options), chunks[k:k + batch])
    return crashes


_WORKER = r"""
import json, sys
from mo import compiler
from mo.compiler import CompileError
cases = [json.loads(line) for line in open(sys.argv[1])]
import faulthandler
for i in range(int(sys.argv[2]), len(cases)):
    print(json.dumps({"start": i}), flush=True)
    faulthandler.dump_traceback_later(float(sys.argv[3]), exit=False)
    try:
        compiler.lower(bytes.fromhex(cases[i]["hex"]).decode("utf-8", "replace"))
    except (CompileError, ValueError):
        pass
    except Exception as e:
        print(json.dumps({"i": i, "unexpected": f"{type(e).__name__}: {e}"[:300]}), flush=True)
"""


def fuzz_python(texts: list[bytes], per_case: float = 60.0) -> list[dict]:
    """Crashers among text mutants given to mo.compiler.lower in worker
    processes: a worker's death or hang, or an exception mo does not document."""
    records, crashed = run_cases(_WORKER, [{"hex": t.hex()} for t in texts], per_case)
    crashes = [{"target": "python", "rc": 0, "input": texts[i].hex(), "output": r["unexpected"]}
               for i, rs in sorted(records.items()) for r in rs]
    crashes += [{"target": "python", "rc": c["rc"], "input": texts[i].hex(),
                 "output": c["stderr"]} for i, c in sorted(crashed.items())]
    return crashes


def bytecode_of(seeds: list[Seed]) -> list[bytes]:
    """The bytecode of every seed that parses."""
    import io

    from mo import _context
    from mo._mlir import ir

    out = []
    with _context.context():
        for s in seeds:
            try:
                module = ir.Module.parse(s.text.decode())
            except ir.MLIRError:
                continue
            buffer = io.BytesIO()
            module.operation.write_bytecode(buffer)
            out.append(buffer.getvalue())
    return out


def run(seed: int, cases: int, targets: set[str]) -> list[dict]:
    """Fuzzes `cases` mutants per target with `seed`; returns the crashers."""
    rng = random.Random(seed)
    seeds = corpus()
    words = _vocabulary(seeds)
    text = [(s, mutate(rng, s.text, words)) for s in (rng.choice(seeds) for _ in range(cases))]
    crashes = []
    if "mo-opt" in targets:
        crashes += fuzz_mo_opt(text)
    if "python" in targets:
        crashes += fuzz_python([t for _, t in text])
    if "bytecode" in targets:
        blobs = bytecode_of(seeds)
        crashes += fuzz_bytecode([mutate(rng, rng.choice(blobs), [b"\0", b"\xff"])
                                  for _ in range(cases)])
    return crashes


def fuzz_bytecode(blobs: list[bytes]) -> list[dict]:
    """Crashers among bytecode mutants read by mo-opt, one process each
    (bytecode cannot be split into chunks)."""
    crashes = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutant.mlirbc"
        for blob in blobs:
            path.write_bytes(blob)
            try:
                p = subprocess.run([sys.executable, "-m", "mo._opt", str(path), "-o", os.devnull],
                                   capture_output=True, timeout=60)
                rc, out = p.returncode, p.stderr.decode(errors="replace")
            except subprocess.TimeoutExpired:
                rc, out = -1, "timeout (a hang)"
            if _crashed(rc, out):
                crashes.append({"target": "mo-opt (bytecode)", "rc": rc, "input": blob.hex(),
                                "output": out[-2000:]})
    return crashes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", type=int, default=500, help="mutants per target")
    parser.add_argument("--target", action="append", choices=["mo-opt", "python", "bytecode"])
    parser.add_argument("--save", type=Path, help="a directory to write crashers to")
    args = parser.parse_args()
    crashes = run(args.seed, args.cases, set(args.target or ["mo-opt", "python", "bytecode"]))
    for k, c in enumerate(crashes):
        print(f"--- crash {k}: {c['target']} {c.get('options', '')} rc={c['rc']}")
        print(c["output"][-600:])
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"crash-{args.seed}-{k}.json").write_text(json.dumps(c, indent=1))
    print(f"{len(crashes)} crashes in {args.cases} mutants per target (seed {args.seed})")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
