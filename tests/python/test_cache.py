"""The persistent compile cache (mo/_cache.py), each case in fresh processes:
a second process links the artifact the first compiled; the key covers the
module, the pipeline (threads), the target and the compiler; corrupt entries,
and intact ones the runtime refuses, are discarded with a warning; an unwritable directory means no caching, not
no code; the size bound evicts the least recently used entries; two
processes compiling one graph at once both succeed."""

import json
import os
import subprocess
import sys

import pytest

# Compiles and runs x * 2 + n on a [n] tensor (n from the environment: one
# graph per n), prints the cache's counts and whether the result is right.
SCRIPT = """
import json, os, warnings
import numpy as np
from mo import _cache, compilation
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout
n = int(os.environ.get("GRAPH_N", "8"))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    run = compilation.compile(lambda x: x * 2.0 + float(n))(
        TensorLayout(DType.float32, [n], CPU()))
x = np.arange(n, dtype=np.float32)
ok = bool(np.array_equal(run(x).to_numpy(), x * 2 + n))
print(json.dumps({"ok": ok, "stats": _cache.stats(),
                  "warnings": [str(w.message) for w in caught]}))
"""


def environment(cache, **env):
    """This process's environment without its cache settings, the cache at
    `cache`, and `env`."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MO_CACHE")}
    environ.update({"MO_CACHE_DIR": str(cache), **{k: str(v) for k, v in env.items()}})
    return environ


def run(tmp_path, cache, **env):
    script = tmp_path / "compile_once.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=environment(cache, **env), timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["ok"]
    result["stderr"] = done.stderr
    return result


def entries(cache):
    return sorted(p for p in cache.iterdir() if p.suffix == ".moc") if cache.exists() else []


def test_a_second_process_links_what_the_first_compiled(tmp_path):
    cache = tmp_path / "cache"
    first = run(tmp_path, cache)
    assert first["stats"] == {"hits": 0, "misses": 1, "stores": 1, "discarded": 0}
    assert len(entries(cache)) == 1
    second = run(tmp_path, cache)
    assert second["stats"] == {"hits": 1, "misses": 0, "stores": 0, "discarded": 0}
    # Another graph is another entry.
    assert run(tmp_path, cache, GRAPH_N=9)["stats"]["misses"] == 1
    assert len(entries(cache)) == 2


def test_disabled_cache_writes_nothing(tmp_path):
    cache = tmp_path / "cache"
    for _ in range(2):
        assert run(tmp_path, cache, MO_CACHE=0)["stats"] == {
            "hits": 0, "misses": 0, "stores": 0, "discarded": 0}
    assert entries(cache) == []


@pytest.mark.parametrize("where", ["object", "header", "truncated"])
def test_a_corrupt_entry_is_discarded_and_compiled_again(tmp_path, where):
    cache = tmp_path / "cache"
    run(tmp_path, cache)
    (entry,) = entries(cache)
    data = bytearray(entry.read_bytes())
    if where == "object":
        data[-100] ^= 0x40
    elif where == "header":
        data[3] ^= 0x01
    else:
        data = data[:len(data) // 2]
    entry.write_bytes(bytes(data))
    again = run(tmp_path, cache)
    assert again["stats"] == {"hits": 0, "misses": 1, "stores": 1, "discarded": 1}
    assert sum("discarded a corrupt or foreign compile cache entry" in w
               for w in again["warnings"]) == 1
    assert run(tmp_path, cache)["stats"]["hits"] == 1  # rewritten whole


def test_an_intact_entry_the_runtime_refuses_is_discarded_and_compiled_again(tmp_path):
    # A valid envelope around an artifact this host cannot run (its
    # manifest asks for a CPU feature no host has).
    cache = tmp_path / "cache"
    run(tmp_path, cache)
    (entry,) = entries(cache)
    script = tmp_path / "spoil.py"
    script.write_text("""
import json, sys
from mo import _cache, compiler
path = sys.argv[1]
manifest, payload = _cache._decode(open(path, "rb").read())
rt = compiler.runtime_module()
text, bytecode, objects = rt.read_artifact(payload)
m = json.loads(text)
m["target"]["features"] += ",+mo-imaginary-feature"
open(path, "wb").write(_cache._encode(manifest, rt.write_artifact(json.dumps(m), bytecode,
                                                                  objects)))
""")
    subprocess.run([sys.executable, str(script), str(entry)], check=True,
                   env=environment(cache), timeout=120)
    again = run(tmp_path, cache)
    assert again["stats"] == {"hits": 0, "misses": 1, "stores": 1, "discarded": 1}
    assert sum("discarded an unusable (compiled for CPU features this host lacks "
               "(+mo-imaginary-feature)" in w for w in again["warnings"]) == 1
    assert run(tmp_path, cache)["stats"]["hits"] == 1


def test_threads_are_part_of_the_key_and_misses_are_explained(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, cache, MO_NUM_THREADS=1)
    other = run(tmp_path, cache, MO_NUM_THREADS=2, MO_EXPLAIN_CACHE_MISSES=1)
    assert other["stats"]["misses"] == 1
    assert "an entry for this module differs in pipeline" in other["stderr"]
    new = run(tmp_path, cache, GRAPH_N=5, MO_EXPLAIN_CACHE_MISSES=1)
    assert "no entry for this module" in new["stderr"]
    assert run(tmp_path, cache, MO_NUM_THREADS=1)["stats"]["hits"] == 1


def test_an_unwritable_directory_means_no_caching_not_no_code(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = run(tmp_path, blocker / "cache")
    assert result["stats"]["stores"] == 0
    assert sum("cannot be written" in w for w in result["warnings"]) == 1


def test_the_size_bound_evicts_the_least_recently_used(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, cache, GRAPH_N=8)
    (first,) = entries(cache)
    bound_mb = 1.5 * first.stat().st_size / (1 << 20)
    run(tmp_path, cache, GRAPH_N=16, MO_CACHE_MAX_MB=bound_mb)
    kept = entries(cache)
    assert len(kept) == 1 and kept[0] != first


def test_two_processes_compiling_one_graph_at_once(tmp_path):
    cache = tmp_path / "cache"
    script = tmp_path / "compile_once.py"
    script.write_text(SCRIPT)
    procs = [subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=environment(cache))
             for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["ok"]
    assert len(entries(cache)) == 1
    assert not [p for p in cache.iterdir() if p.name.startswith(".tmp-")]
    assert run(tmp_path, cache)["stats"]["hits"] == 1
