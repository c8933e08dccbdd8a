"""``torch.compile(model, backend="mo")``: PyTorch models on mo (seed 002).

After ``pip install mo-compiler[torch]`` the backend is registered with
Dynamo under the name ``"mo"`` (the ``torch_dynamo_backends`` entry point):

    >>> import torch
    >>> fast = torch.compile(torch.nn.Linear(4, 2), backend="mo")   # doctest: +SKIP

``mo.torch.compile(model, fallback=..., threads=..., dynamic=...)`` does the
same with options; ``mo.torch.explain(model, *inputs)`` reports how much of
the model ran in mo. Forward and backward graphs both compile (through
AOTAutograd), so training loops run unchanged. Ops mo lacks stay in torch
with one warning each (``fallback="error"`` raises instead). Set
``MO_TORCH_LOG=1`` to print every partition's mo graph.
"""

from __future__ import annotations

from typing import Any

from mo.torch._backend import Backend, Explanation, MoTorchError, PartitionInfo, default_backend

__all__ = ["Backend", "Explanation", "MoTorchError", "PartitionInfo", "backend", "compile",
           "explain"]


def backend(gm: Any, example_inputs: Any) -> Any:
    """The ``torch.compile`` backend with default options (``backend="mo"``)."""
    return default_backend()(gm, example_inputs)


def compile(model: Any, *, fallback: str = "warn", threads: int | None = None,  # noqa: A001
            freeze: bool = False, dynamic: bool | None = None, fullgraph: bool = False) -> Any:
    """``torch.compile(model, backend=Backend(fallback=..., threads=..., freeze=...))``.

    ``dynamic`` and ``fullgraph`` are ``torch.compile``'s: with
    ``dynamic=True`` sizes are symbolic from the start, so a new batch size
    does not recompile.
    """
    import torch

    return torch.compile(model, backend=Backend(fallback=fallback, threads=threads,
                                                freeze=freeze),
                         dynamic=dynamic, fullgraph=fullgraph)


def explain(model: Any, *inputs: Any, dynamic: bool | None = None, **kwargs: Any) -> Explanation:
    """Compiles ``model`` with a recording backend, runs it once on ``inputs``
    and returns what happened: aten ops, how many ran in mo, the partitions
    and their kernels, the ops left to torch."""
    import torch

    recorder = Backend(fallback="silent", record=True)
    torch.compile(model, backend=recorder, dynamic=dynamic)(*inputs, **kwargs)
    return recorder.explanation
