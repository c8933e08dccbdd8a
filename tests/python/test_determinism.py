"""The same program staged in processes with different PYTHONHASHSEEDs gives
byte-identical IR (pretty, with debug locations, and generic form)."""

import hashlib
import os
import subprocess
import sys
import textwrap

import pytest

import mo

# Subprocesses import the same mo as this process (installed or source tree).
MO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(mo.__file__)))

PROGRAM = textwrap.dedent('''
    import sys
    from mo import compilation
    from mo import functional as F
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.graph import Graph
    from mo.sharding import BufferLayout, TensorLayout

    @compilation.as_subgraph
    def block(x, *, k):
        with Graph.layer("block"):
            return F.relu(x * k)

    def make(k):
        def mul(x):
            return x * k
        return mul

    def weighted(x):
        return x * F.constant_external("w", TensorLayout(DType.float32, [4], CPU()),
                                       is_placeholder=True)

    def prog(d, scale, cache, *, tag, opts):
        x = d["zeta"] + d["alpha"]["q"]
        b, s, f = x.shape
        with Graph.layer("enc"):
            y = block(block(x, k=2.0), k=3.0)
            y = compilation.as_subgraph(make(5))(compilation.as_subgraph(make(7))(y))
            y = compilation.as_subgraph(weighted, name="layer", prefix="layers.0.")(y)
            y = compilation.as_subgraph(weighted, name="layer", prefix="layers.1.")(y)
        cache[...] = d["alpha"]["p"] * 1
        return {"y": y.reshape([b * s, f]),
                "m": (x @ d["w"], d["alpha"]["p"] * scale),
                "c": F.exp(d["mid"])}

    def L(*shape, dtype=DType.float32):
        return TensorLayout(dtype, list(shape), CPU())

    # Insertion order deliberately unsorted; sets and frozensets as static values.
    specs = {"zeta": L("batch", "seq", 4), "mid": L("n", "m", dtype=DType.float64),
             "alpha": {"q": L("batch", "seq", 4), "p": L("n", dtype=DType.float64)},
             "w": L(4, "out")}
    staged = compilation.stage(prog)(specs, 2.0, BufferLayout(DType.float64, ["n"], CPU()),
                                     tag=frozenset({"a", "b", "c", "d", "e", "f"}),
                                     opts=("x", ("y", 3), None))
    op = staged.graph.module.operation
    sys.stdout.write(str(staged))
    sys.stdout.write("\\n=====\\n")
    sys.stdout.write(op.get_asm(enable_debug_info=True))
    sys.stdout.write("\\n=====\\n")
    sys.stdout.write(op.get_asm(print_generic_op_form=True, enable_debug_info=True))
    sys.stdout.write("\\n=====\\n")
    sys.stdout.write(repr(staged.in_tree.leaf_paths) + "\\n" + repr(staged.out_tree.keys) + "\\n")
    sys.stdout.write(repr(staged.in_layouts) + "\\n" + repr(staged.out_layouts) + "\\n")
''')


def stage_in_subprocess(tmp_path, seed):
    script = tmp_path / "program.py"  # one path: the locations name it
    script.write_text(PROGRAM)
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = str(seed)
    env["PYTHONPATH"] = os.pathsep.join(
        [MO_ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          timeout=120, cwd=str(tmp_path), check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("determinism")
    return {seed: stage_in_subprocess(tmp, seed) for seed in (0, 1, 4242)}


def test_program_is_nontrivial(outputs):
    text = outputs[0].decode()
    pretty = text.split("=====")[0]
    # Dicts (sorted keys), subgraphs, symbolic dims and algebra are all in there.
    assert "mo.graph @prog<" in pretty
    for name in ("block", "block_1", "mul", "mul_1", "layer"):
        assert f"mo.graph @{name}" in pretty, name
    assert "batch * seq" in pretty and "!mo.buffer<[n], f64>" in pretty
    assert 'prefix = "layers.1."' in pretty
    assert 'loc("enc.block"(' in text.split("=====")[1]


def test_identical_ir_across_hash_seeds(outputs):
    digests = {seed: hashlib.sha256(out).hexdigest() for seed, out in outputs.items()}
    assert len(set(digests.values())) == 1, digests
    assert outputs[0] == outputs[1] == outputs[4242]


def test_identical_ir_in_process_repeat(tmp_path):
    # Staging twice in one process gives the same text too (no global counters).
    script = tmp_path / "twice.py"
    script.write_text(PROGRAM.replace("sys.stdout.write", "out.append"))
    code = (f"out = []\nexec(open({str(script)!r}).read())\na = ''.join(out)\nout = []\n"
            f"exec(open({str(script)!r}).read())\nb = ''.join(out)\n"
            "assert a == b, 'differs'\nprint('same')\n")
    env = dict(os.environ, PYTHONPATH=MO_ROOT + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().strip() == "same"


FROZENSET_PROGRAM = textwrap.dedent('''
    from mo import compilation
    from mo.driver import CPU
    from mo.dtype import DType
    from mo.sharding import TensorLayout

    @compilation.as_subgraph
    def blk(x, *, s):
        return x * len(s)

    # Equal static values; their iteration (and repr) order depends on string hashes.
    a = frozenset(["a", "b"])
    b = frozenset(["b", "a"])
    staged = compilation.stage(lambda x: blk(blk(x, s=a), s=b))(
        TensorLayout(DType.float32, [2], CPU()))
    print(staged)
''')


def test_identical_ir_with_frozenset_statics(tmp_path):
    script = tmp_path / "program.py"
    script.write_text(FROZENSET_PROGRAM)
    env = dict(os.environ, PYTHONPATH=MO_ROOT + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    texts = []
    for seed in (0, 5):  # 5 orders {"b", "a"} differently from 0 under CPython's siphash
        env["PYTHONHASHSEED"] = str(seed)
        proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                              timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr.decode()
        texts.append(proc.stdout)
    assert texts[0].count(b"mo.graph @blk") == 1
    assert texts[0] == texts[1]
