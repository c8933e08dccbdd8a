"""Writes the op registry the Python package reads (``mo/_opdefs.json``).

Input: ``llvm-tblgen --dump-json`` of ``MoOps.td`` (every record). Output: one
entry per mo op: its mnemonic, C++/Python class name and summary, plus the
registry fields of the op families (``moFamily``, ``moKinds``, ...), so the
Python wrappers, ``F.*`` and the tests are built from the same rows as ODS.

Usage: python opdefs.py RECORDS.json OUT.json
"""

import json
import sys


def main(records_path: str, out_path: str) -> None:
    records = json.load(open(records_path))
    ops = []
    for name in sorted(records["!instanceof"]["Mo_Op"]):
        r = records[name]
        entry = {"name": r["opName"], "class": name.removeprefix("Mo_"),
                 "summary": r["summary"]}
        for field in ("moFamily", "moKinds", "moKindsText", "moReference", "moArity",
                      "moPythonName", "moBoolResult"):
            if field in r:
                entry[field.removeprefix("mo")[0].lower() + field[3:]] = r[field]
        ops.append(entry)
    with open(out_path, "w") as f:
        json.dump({"ops": ops}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
