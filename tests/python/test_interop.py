"""Arrays from other libraries through DLPack: torch tensors are read
without a copy, bfloat16 included (numpy has no bfloat16: an int16 view
read as ml_dtypes'); what DLPack cannot carry is a ValueError naming the
argument (a tensor that requires grad, one on another device, a sparse one,
a producer whose export fails), never torch's bare BufferError."""

import numpy as np
import pytest

from mo import compilation, functional as F
from mo.compilation import _as_array
from mo.driver import CPU
from mo.dtype import DType
from mo.sharding import TensorLayout

torch = pytest.importorskip("torch")


def L(dtype, *shape):
    return TensorLayout(dtype, list(shape), CPU())


def test_torch_inputs_are_read_in_place():
    for dtype in (torch.float32, torch.bfloat16, torch.int64):
        t = torch.arange(6, dtype=dtype).reshape(2, 3)
        assert _as_array(t, "argument 0").ctypes.data == t.data_ptr()


def test_bfloat16_torch_tensor_computes():
    run = compilation.compile(lambda x: x * 2.0 + 1.0)(L(DType.bfloat16, 4))
    t = torch.tensor([1.0, -2.5, 3.0, 0.5], dtype=torch.bfloat16)
    out = run(t).to_numpy().astype(np.float32)
    np.testing.assert_array_equal(out, (t * 2 + 1).float().numpy())


def test_bfloat16_torch_weight():
    run = compilation.compile(
        lambda x: x + F.constant_external("w", L(DType.bfloat16, 2)),
        weights={"w": torch.tensor([0.5, 4.0], dtype=torch.bfloat16)})(L(DType.bfloat16, 2))
    x = torch.tensor([1.0, 1.0], dtype=torch.bfloat16)
    np.testing.assert_array_equal(run(x).to_numpy().astype(np.float32), [1.5, 5.0])


@pytest.mark.parametrize("make,message", [
    (lambda: torch.ones(3, requires_grad=True), "argument 0: got a torch tensor that requires "
                                                "grad.+tensor.detach"),
    (lambda: torch.ones(3, device="meta"), "argument 0: expected a tensor on cpu:0, got a torch "
                                           "tensor on meta"),
    (lambda: torch.ones(3).to_sparse(), "argument 0: expected a dense tensor.+to_dense"),
], ids=["requires-grad", "meta", "sparse"])
def test_tensors_dlpack_cannot_carry_are_named(make, message):
    run = compilation.compile(lambda x: x + 1.0)(L(DType.float32, 3))
    with pytest.raises(ValueError, match=message):
        run(make())


def test_a_failing_dlpack_producer_is_a_value_error():
    class Broken:
        def __dlpack__(self, *args, **kwargs):
            raise BufferError("no export today")

        def __dlpack_device__(self):
            return (1, 0)

    run = compilation.compile(lambda x: x + 1.0)(L(DType.float32, 3))
    with pytest.raises(ValueError, match="argument 0: cannot read Broken through DLPack "
                                         r"\(no export today\)"):
        run(Broken())
