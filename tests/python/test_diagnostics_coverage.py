"""Every diagnostic the mo dialect's C++ emits has a negative lit test.

A pure text scan (no native library, no build): it reads the diagnostics
streamed in ``cpp/lib/Dialect/*.cpp`` and the ``expected-error`` lines of
``tests/ir/**/*.mlir``, and fails, naming the message and its ``file:line``,
for each diagnostic that no ``expected-error`` pins.

What counts as a diagnostic: a call to ``emitOpError(``, ``emitError(``,
``emitOptionalError(`` or ``inferError(`` (result-type inference; comments and string contents are skipped) whose
statement, up to its ``;``, holds at least one string literal. Calls without
literals (``[&] { return emitOpError(); }``, the callbacks handed to
verifiers) only open a diagnostic that is written elsewhere.

What counts as covered, the rule:

* The message's *fragments* are its string literals in order, adjacent
  literals joined as C++ joins them; values streamed between them (``<< n``,
  a type, ``what``) are holes. ``emitOpError("expects ") << n << " operands"``
  has the fragments ``expects`` and ``operands``.
* Fragments are compared with surrounding whitespace stripped; those left with
  fewer than 2 characters (``'``, ``)``, ``<``) carry no meaning and are
  skipped. A message left with no fragment at all is never expected.
* A message is covered when one ``expected-error {{...}}`` text contains all
  of its fragments in order. So the whole message is pinned, not only its
  first words: ``"dim " << i << ": a symbolic window must be the whole dim"``
  and ``"dim " << i << ": window of "`` need their own cases.
* An ``emitOpError`` made by an op's own method (``TransposeOp::verify``) must
  also match that op's ``'mo.<mnemonic>' op`` prefix, so messages with the
  same text on different ops (``result must be ...``) each need a case. One
  made for another op (``op->emitOpError``, in shared helpers) must match
  some ``'mo.<name>' op`` prefix.

Messages that IR cannot reach are listed in ``UNREACHABLE_FROM_IR`` with the
reason; the list is checked to stay current.

Example::

    $ .venv/bin/python -m pytest -q tests/python/test_diagnostics_coverage.py
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).parents[2]
DIALECT_SOURCES = sorted((ROOT / "cpp" / "lib" / "Dialect").glob("*.cpp"))
DIALECT_TD = sorted((ROOT / "dialects" / "Mo").glob("*.td"))
IR_TESTS = sorted(
    p for p in (ROOT / "tests" / "ir").rglob("*.mlir") if "Output" not in p.parts
)

#: Leading fragment of a message -> why no IR can trigger it.
UNREACHABLE_FROM_IR = {
    "operands must be !mo.tensor values": (
        "checkOperandPair() in type inference; the ODS operand constraint "
        "('operand #0 must be mo tensor') rejects such IR first, so only a "
        "builder that infers result types can reach it"
    ),
}

MIN_FRAGMENT = 2

# (Not the definition of the inferError helper itself.)
_EMIT = re.compile(r"(?<!InFlightDiagnostic )\b(emitOpError|emitError|emitOptionalError|inferError)\s*\(")
_EXPECTED = re.compile(r"expected-error\s*(?:@\S+)?\s*\{\{(.*)\}\}")
# A function definition starting a line: `LogicalResult FooOp::verify(` gives
# the class `FooOp`; `static LogicalResult helper(` gives none.
_FUNCTION = re.compile(r"^(?=[A-Za-z_])[^;(=]*?(?:\b(\w+)::)?\b(\w+)\s*\(")


@dataclass
class Diagnostic:
    """One diagnostic call site and the literal fragments of its message."""

    path: Path
    line: int
    fragments: list[str]
    #: The `'mo.x' op ` prefix this diagnostic carries: exact, any (regex) or none.
    prefix: str | None = None
    prefix_is_regex: bool = False
    raw: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def text(self) -> str:
        """The message as written, `<...>` for each streamed value."""
        prefix = "'mo.<op>' op " if self.prefix_is_regex else self.prefix or ""
        return prefix + "<...>".join(self.raw)


def _tokens(source: str):
    """Splits C++ source into (kind, text, offset): code, string, char, comment."""
    i, n = 0, len(source)
    start = 0
    while i < n:
        c = source[i]
        if source.startswith("//", i) or source.startswith("/*", i):
            if start < i:
                yield "code", source[start:i], start
            end = source.find("\n" if source[i + 1] == "/" else "*/", i + 2)
            end = n if end < 0 else end + (0 if source[i + 1] == "/" else 2)
            yield "comment", source[i:end], i
            i = start = end
        elif c in "\"'":
            if start < i:
                yield "code", source[start:i], start
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            raw = source[i + 1 : j]
            value = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), raw)
            yield ("string" if c == '"' else "char"), value, i
            i = start = j + 1
        else:
            i += 1
    if start < n:
        yield "code", source[start:], start


def _op_classes(td_texts: list[str]) -> dict[str, str]:
    """C++ op class name -> mnemonic, from the ODS records."""
    ops = {}
    for text in td_texts:
        for cls, mnemonic in re.findall(r'def Mo_(\w+Op)\s*:\s*Mo_Op<"([\w.]+)"', text):
            ops[cls] = mnemonic
        for mnemonic, stem in re.findall(r'Mo_(?:Binary|Unary)OpInfo<"([\w.]+)",\s*"(\w+)"', text):
            ops[stem + "Op"] = mnemonic
    return ops


def extract_diagnostics(
    path: Path, source: str, op_classes: dict[str, str] | None = None
) -> list[Diagnostic]:
    """The diagnostics emitted in one C++ file (see the module docstring)."""
    op_classes = op_classes or {}
    tokens = list(_tokens(source))
    # The class of the function each offset lies in (None for free functions).
    functions = []
    for m in re.finditer(r"^.*$", source, re.M):
        if f := _FUNCTION.match(m[0]):
            functions.append((m.start(), f[1]))

    def enclosing_class(offset: int) -> str | None:
        cls = None
        for start, name in functions:
            if start > offset:
                break
            cls = name
        return cls

    found = []
    for k, (kind, text, offset) in enumerate(tokens):
        if kind != "code":
            continue
        for m in _EMIT.finditer(text):
            at = offset + m.start()
            # The statement: from the call to the `;` that ends it.
            depth, pieces, tail = 0, [], text[m.end() - 1 :]
            for kind2, text2, _ in [("code", tail, 0), *tokens[k + 1 :]]:
                if kind2 == "comment":
                    continue
                if kind2 != "code":
                    pieces.append((kind2, text2))
                    continue
                end = None
                for j, c in enumerate(text2):
                    depth += c in "([{"
                    depth -= c in ")]}"
                    if (c == ";" and depth <= 0) or depth < 0:
                        end = j
                        break
                pieces.append(("code", text2 if end is None else text2[:end]))
                if end is not None:
                    break
            raw: list[str] = []
            joined = False
            for kind2, text2 in pieces:
                if kind2 == "string":
                    if joined and raw:
                        raw[-1] += text2
                    else:
                        raw.append(text2)
                    joined = True
                elif kind2 == "char" or text2.strip():
                    joined = False
            if not raw:
                continue
            fragments = [f.strip() for f in raw if len(f.strip()) >= MIN_FRAGMENT]
            diag = Diagnostic(path, source.count("\n", 0, at) + 1, fragments, raw=raw)
            if m[1] == "emitOpError":
                receiver = text[: m.start()].rstrip()
                cls = enclosing_class(at)
                if not receiver.endswith(("->", ".")) and cls in op_classes:
                    diag.prefix = f"'mo.{op_classes[cls]}' op "
                else:
                    diag.prefix, diag.prefix_is_regex = r"'mo\.[\w.]+' op ", True
            found.append(diag)
    return found


def expected_errors(paths: list[Path]) -> list[tuple[Path, int, str]]:
    """The `{{...}}` text of every `expected-error` line."""
    out = []
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if m := _EXPECTED.search(line):
                out.append((path, number, m[1]))
    return out


def covers(expected: str, diag: Diagnostic) -> bool:
    """True if one expected-error text holds the diagnostic's fragments in order."""
    pos = 0
    if diag.prefix is not None:
        if diag.prefix_is_regex:
            m = re.search(diag.prefix, expected)
            if not m:
                return False
            pos = m.end()
        else:
            pos = expected.find(diag.prefix)
            if pos < 0:
                return False
            pos += len(diag.prefix)
    for fragment in diag.fragments:
        pos = expected.find(fragment, pos)
        if pos < 0:
            return False
        pos += len(fragment)
    return True


def all_diagnostics() -> list[Diagnostic]:
    op_classes = _op_classes([p.read_text() for p in DIALECT_TD])
    return [
        d for p in DIALECT_SOURCES for d in extract_diagnostics(p, p.read_text(), op_classes)
    ]


def uncovered(diagnostics, errors) -> list[Diagnostic]:
    return [
        d
        for d in diagnostics
        if d.fragments
        and d.fragments[0] not in UNREACHABLE_FROM_IR
        and not any(covers(text, d) for _, _, text in errors)
    ]


def test_every_dialect_diagnostic_has_an_expected_error():
    diagnostics = all_diagnostics()
    assert diagnostics, f"no diagnostics found in {[str(p) for p in DIALECT_SOURCES]}"
    missing = uncovered(diagnostics, expected_errors(IR_TESTS))
    assert not missing, (
        f"{len(missing)} of {len(diagnostics)} diagnostics have no `expected-error` in "
        "tests/ir (add a `// -----` case to tests/ir/invalid.mlir):\n"
        + "\n".join(f"  {d.where}: {d.text!r}" for d in missing)
    )


def test_unreachable_list_is_current():
    leading = {d.fragments[0] for d in all_diagnostics() if d.fragments}
    stale = set(UNREACHABLE_FROM_IR) - leading
    assert not stale, f"UNREACHABLE_FROM_IR names messages no longer emitted: {stale}"


def test_extractor_reads_fragments_holes_and_prefixes():
    source = """
LogicalResult FooOp::verify() {
  // emitOpError("in a comment") is not a diagnostic.
  if (failed(check([&] { return emitOpError(); })))
    return failure();
  if (n != 2)
    return emitOpError("expects ") << n << " operands; got "
           "more" << ")";
  return helper(*this);
}
static LogicalResult helper(Operation *op) {
  return op->emitOpError("dim ") << i << ": too big";
}
LogicalResult Bar::verify(function_ref<InFlightDiagnostic()> emitError) {
  return emitError() << "bad " << 'x';
}
"""
    diags = extract_diagnostics(ROOT / "x.cpp", source, {"FooOp": "foo"})
    assert [(d.line, d.fragments, d.prefix) for d in diags] == [
        (7, ["expects", "operands; got more"], "'mo.foo' op "),
        (12, ["dim", ": too big"], r"'mo\.[\w.]+' op "),
        (15, ["bad"], None),
    ]


def test_coverage_rule_needs_every_fragment_and_the_op():
    diag = extract_diagnostics(
        ROOT / "x.cpp",
        'LogicalResult FooOp::verify() {\n  return emitOpError("needs ") << n << " starts";\n}\n',
        {"FooOp": "foo"},
    )[0]
    assert covers("'mo.foo' op needs 2 starts", diag)
    assert not covers("'mo.foo' op needs 2 steps", diag)  # a later fragment differs
    assert not covers("'mo.bar' op needs 2 starts", diag)  # another op
    assert not covers("starts 'mo.foo' op needs", diag)  # out of order
    errors = [(ROOT / "t.mlir", 1, "'mo.foo' op needs 2")]
    assert uncovered([diag], errors) == [diag]
