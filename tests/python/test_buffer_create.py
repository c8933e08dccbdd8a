"""buffer_create and buffer_store_slice: a graph-local buffer, filled,
written in windows and read back, against numpy doing the same writes."""

import numpy as np
import pytest

from mo.compiler import Executable
from mo.dtype import DType
from mo.graph import BufferType, DeviceRef, Graph, TensorType, ops


@pytest.mark.parametrize("rows", [1, 4])
def test_buffer_create_fill_store_slice_load(rows):
    t = TensorType(DType.float32, ["n", 3], DeviceRef.CPU())
    with Graph("f", input_types=[t]) as g:
        x = g.inputs[0]
        b = ops.buffer_create(BufferType(DType.float32, x.shape, DeviceRef.CPU()), 1.0)
        ops.buffer_store_slice(b, ops.mul(x[:, 0:1], 2.0), [slice(None), slice(1, 2)])
        ops.buffer_store_slice(b, 7.0, [slice(None), 2])
        g.output(ops.buffer_load(b))
    x = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
    out = np.empty_like(x)
    Executable(g.module).run([x], [], [out])
    ref = np.ones_like(x)
    ref[:, 1:2] = x[:, 0:1] * 2
    ref[:, 2] = 7
    np.testing.assert_array_equal(out, ref)


def test_buffer_create_needs_a_buffer_type():
    with Graph("f"):
        with pytest.raises(TypeError, match="buffer_create: expected a BufferType, got str"):
            ops.buffer_create("f32")
