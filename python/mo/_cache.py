"""The persistent compile cache: artifacts by the hash of what made them.

An entry is the artifact (a .mef without its bytecode: manifest and object
code) mo made for a mo module, keyed by a hash of the module (printed with
its locations, which the compiled checks' messages quote, and custom
extensions merged in), the code generation
pipeline and its options, the LLVM optimization level, the host target
(triple, CPU, features), the compiler build and the inputs' names. A hit
runs no pass and no LLVM: the artifact is linked as it is.

Settings: ``MO_CACHE_DIR`` (default ``~/.cache/mo``), ``MO_CACHE=0``
disables it, ``MO_CACHE_MAX_MB`` (default 1024) bounds its size (least
recently used entries evicted), ``MO_EXPLAIN_CACHE_MISSES=1`` says on stderr
which part of the key missed. ``stats()`` counts hits, misses, stores and
discarded entries (the tests' hook).

Entries are written to a temporary file and renamed into place, so that a
reader never sees half an entry and two processes compiling the same module
at once both succeed. Each carries a SHA-256 of its contents, checked before
anything in it is used: a corrupt or foreign entry is discarded (one warning)
and compiled again. A cache directory that cannot be written leaves the
process without caching (one warning), never without code.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import struct
import sys
import tempfile
import threading
import warnings
from typing import Any

_MAGIC = b"MOCACHE1"
_SUFFIX = ".moc"
_lock = threading.Lock()
_stats = {"hits": 0, "misses": 0, "stores": 0, "discarded": 0}
_disabled_reason: list[str] = []


def stats() -> dict[str, int]:
    """Counts of hits, misses, stores and discarded entries in this process."""
    with _lock:
        return dict(_stats)


def reset_stats() -> None:
    with _lock:
        for key in _stats:
            _stats[key] = 0


def _count(what: str) -> None:
    with _lock:
        _stats[what] += 1


def directory() -> str | None:
    """The cache directory, or None when caching is off."""
    if os.environ.get("MO_CACHE", "1") == "0" or _disabled_reason:
        return None
    return os.environ.get("MO_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "mo")


def native_library() -> str:
    """mo's native library: the compiler and the runtime's C API."""
    from mo._mlir import _mlir_libs

    return os.path.join(os.path.dirname(_mlir_libs.__file__), "libMoPythonCAPI.so")


@functools.cache
def _compiler_build() -> str:
    """mo's version and the identity of its native library (a rebuild with
    the same version number is another compiler)."""
    import mo

    try:
        st = os.stat(native_library())
        native = f"{st.st_size}-{st.st_mtime_ns}"
    except OSError:
        native = "?"
    return f"{getattr(mo, '__version__', '?')}/{native}"


@functools.cache
def host_target() -> str:
    """'<triple> <cpu> <features>' of the code generated here."""
    from mo._mlir._mlir_libs import _moDialects

    return _moDialects.host_target()


def key_parts(module_text: str, pipeline: str, opt_level: int, **more: str) -> dict[str, str]:
    """What an entry depends on, each part hashed or short; ``more`` parts
    (e.g. the inputs' names an artifact's manifest holds) are the caller's."""
    return {
        "module": hashlib.sha256(module_text.encode()).hexdigest(),
        "pipeline": pipeline,
        "opt_level": str(opt_level),
        "target": host_target(),
        "compiler": _compiler_build(),
        **more,
    }


def digest(parts: dict[str, str]) -> str:
    """The key's hash: an entry's file name, an artifact's content hash."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def _encode(manifest: dict[str, Any], payload: bytes) -> bytes:
    head = json.dumps(manifest, sort_keys=True).encode()
    body = struct.pack("<I", len(head)) + head + payload
    return _MAGIC + hashlib.sha256(body).digest() + body


def _decode(data: bytes) -> tuple[dict[str, Any], bytes] | None:
    """The manifest and artifact of an entry, or None if it is not one intact."""
    if len(data) < len(_MAGIC) + 36 or not data.startswith(_MAGIC):
        return None
    digest, body = data[len(_MAGIC):len(_MAGIC) + 32], data[len(_MAGIC) + 32:]
    if hashlib.sha256(body).digest() != digest:
        return None
    (size,) = struct.unpack_from("<I", body)
    try:
        manifest = json.loads(body[4:4 + size])
    except ValueError:
        return None
    return manifest, body[4 + size:]


def load(parts: dict[str, str]) -> tuple[bytes, list[str]] | None:
    """The artifact and the warnings its compilation gave, on a hit."""
    root = directory()
    if root is None:
        return None
    path = os.path.join(root, digest(parts) + _SUFFIX)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        _count("misses")
        if os.environ.get("MO_EXPLAIN_CACHE_MISSES") == "1":
            _explain(root, parts)
        return None
    entry = _decode(data)
    if entry is None or entry[0].get("key") != parts:
        _discard(path, "a corrupt or foreign")
        return None
    _count("hits")
    try:
        os.utime(path)  # recently used
    except OSError:
        pass
    return entry[1], list(entry[0].get("warnings", []))


def discard(parts: dict[str, str], why: str) -> None:
    """Drops the entry a hit returned that proved unusable (counted a miss)."""
    root = directory()
    if root is not None:
        with _lock:
            _stats["hits"] -= 1
        _discard(os.path.join(root, digest(parts) + _SUFFIX), f"an unusable ({why})")


def _discard(path: str, what: str) -> None:
    _count("discarded")
    _count("misses")
    warnings.warn(f"mo: discarded {what} compile cache entry ({path}); compiling again",
                  RuntimeWarning, stacklevel=4)
    try:
        os.unlink(path)
    except OSError:
        pass


def store(parts: dict[str, str], artifact: bytes, warned: list[str]) -> None:
    root = directory()
    if root is None:
        return
    data = _encode({"key": parts, "warnings": warned}, artifact)
    try:
        os.makedirs(root, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=root, prefix=".tmp-", suffix=_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temp, os.path.join(root, digest(parts) + _SUFFIX))
        except BaseException:
            os.unlink(temp)
            raise
    except OSError as e:
        with _lock:
            first = not _disabled_reason
            _disabled_reason.append(str(e))
        if first:
            warnings.warn(f"mo: the compile cache at {root} cannot be written ({e}); "
                          "compiling without it", RuntimeWarning, stacklevel=3)
        return
    _count("stores")
    _evict(root)


def _entries(root: str) -> list[tuple[float, int, str]]:
    found = []
    try:
        names = os.listdir(root)
    except OSError:
        return found
    for name in names:
        if name.endswith(_SUFFIX) and not name.startswith(".tmp-"):
            path = os.path.join(root, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            found.append((st.st_mtime, st.st_size, path))
    return found


def _evict(root: str) -> None:
    """Least recently used entries out until the cache fits its bound."""
    try:
        bound = float(os.environ.get("MO_CACHE_MAX_MB", "1024")) * (1 << 20)
    except ValueError:
        bound = float(1 << 30)
    entries = sorted(_entries(root))
    total = sum(size for _, size, _ in entries)
    for _, size, path in entries:
        if total <= bound:
            break
        try:
            os.unlink(path)
            total -= size
        except OSError:
            pass


def _explain(root: str, parts: dict[str, str]) -> None:
    """On stderr: which parts of the key the nearest entries differ in."""
    best: list[str] | None = None
    for _, _, path in _entries(root):
        try:
            with open(path, "rb") as f:
                entry = _decode(f.read())
        except OSError:
            continue
        if entry is None or not isinstance(entry[0].get("key"), dict):
            continue
        differ = sorted(k for k in parts if entry[0]["key"].get(k) != parts[k])
        if best is None or len(differ) < len(best):
            best = differ
    if best is None:
        reason = "the cache is empty"
    elif "module" in best:
        reason = "no entry for this module"
    else:
        reason = "an entry for this module differs in " + ", ".join(best)
    sys.stderr.write(f"mo: compile cache miss ({reason})\n")
