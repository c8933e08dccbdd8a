"""custom / inplace_custom: user kernels from compile(custom_extensions=...):
MLIR functions (a file or text) and C symbols in a shared library built here
with the system C compiler, against numpy; and the errors at the call."""

import shutil
import subprocess

import numpy as np
import pytest

from mo import compilation
from mo import functional as F
from mo.compiler import CompileError
from mo.driver import CPU, Buffer
from mo.dtype import DType
from mo.sharding import BufferLayout, TensorLayout

VEC = TensorLayout(DType.float32, ["n"], CPU())

C_KERNELS = r"""
#include <stdint.h>
/* An unranked memref: rank, then a descriptor: allocated and aligned
   pointers, offset, sizes[rank], strides[rank]. */
typedef struct { float *allocated, *aligned; int64_t offset, sizes_strides[]; } f32_t;
typedef struct { int64_t *allocated, *aligned; int64_t offset, sizes_strides[]; } i64_t;

void scale_add(int64_t rx, f32_t *x, int64_t ry, f32_t *y, int64_t ro, f32_t *out,
               double alpha) {
  for (int64_t i = 0; i < x->sizes_strides[0]; ++i)
    out->aligned[out->offset + i] =
        (float)(alpha * x->aligned[x->offset + i * x->sizes_strides[1]] +
                y->aligned[y->offset + i * y->sizes_strides[1]]);
}

void fill_iota(int64_t r, i64_t *b, int64_t start) {
  for (int64_t i = 0; i < b->sizes_strides[0]; ++i)
    b->aligned[b->offset + i * b->sizes_strides[1]] = start + i;
}
"""

MLIR_KERNEL = """
func.func @twice_plus(%x: tensor<?xf32>, %p: i64) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %pf = arith.sitofp %p : i64 to f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %a : f32
    %s = arith.addf %t, %pf : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""


@pytest.fixture(scope="module")
def c_library(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler on this machine to build the C kernels")
    d = tmp_path_factory.mktemp("kernels")
    (d / "k.c").write_text(C_KERNELS)
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(d / "libk.so"), str(d / "k.c")],
                   check=True)
    return str(d / "libk.so")


def test_mlir_and_c_kernels_in_one_graph(c_library, tmp_path):
    (tmp_path / "k.mlir").write_text(MLIR_KERNEL)

    def f(x, y):
        (a,) = F.custom("scale_add", CPU(), [x, y], [VEC], parameters={"alpha": 2.0})
        (b,) = F.custom("twice_plus", CPU(), [a], [VEC], parameters={"p": 3})
        return b

    run = compilation.compile(f, custom_extensions=[c_library, str(tmp_path / "k.mlir")])(VEC, VEC)
    for n in (0, 1, 7):
        x, y = np.arange(n, dtype=np.float32), np.full(n, 0.5, np.float32)
        np.testing.assert_array_equal(run(x, y).to_numpy(), (2 * x + y) * 2 + 3)


def test_mlir_kernel_given_as_text():
    run = compilation.compile(
        lambda x: F.custom("twice_plus", CPU(), [x], [VEC], parameters={"p": -1})[0],
        custom_extensions=[MLIR_KERNEL])(VEC)
    np.testing.assert_array_equal(run(np.array([1.0, 2.0], np.float32)).to_numpy(), [1.0, 3.0])


def test_inplace_custom_writes_the_callers_buffer(c_library):
    def g(buf):
        F.inplace_custom("fill_iota", CPU(), [buf], parameters={"start": 10})
        return F.constant(np.zeros(1, np.float32))

    run = compilation.compile(g, custom_extensions=c_library)(
        BufferLayout(DType.int64, ["n"], CPU()))
    b = Buffer.from_numpy(np.zeros(5, np.int64))
    run(b)
    np.testing.assert_array_equal(b.to_numpy(), [10, 11, 12, 13, 14])


def test_kernel_errors(c_library):
    with pytest.raises(CompileError, match="custom kernel 'scale_add' is neither a function of "
                                           "an MLIR custom extension nor a symbol"):
        compilation.compile(lambda x: F.custom("scale_add", CPU(), [x, x], [VEC])[0],
                            custom_extensions=[MLIR_KERNEL])(VEC)
    with pytest.raises(CompileError, match=r"custom kernel @twice_plus takes 'tensor<\?xf32>' as "
                                           r"argument 0, but the op passes 'tensor<\?xf16>'"):
        compilation.compile(
            lambda x: F.custom("twice_plus", CPU(), [x], [TensorLayout(DType.float16, ["n"],
                                                                         CPU())],
                               parameters={"p": 1})[0],
            custom_extensions=[MLIR_KERNEL])(TensorLayout(DType.float16, ["n"], CPU()))
    with pytest.raises(CompileError, match="has type .* but the op passes 1 operands and 0 "
                                           "parameters"):
        compilation.compile(lambda x: F.custom("twice_plus", CPU(), [x], [VEC])[0],
                            custom_extensions=[MLIR_KERNEL])(VEC)
    with pytest.raises(ValueError, match="parameter 'mode' must be an int, float or bool, got str"):
        compilation.compile(lambda x: F.custom("k", CPU(), [x], [VEC],
                                               parameters={"mode": "fast"})[0])(VEC)
    with pytest.raises(CompileError, match="custom extension symbol @twice_plus is defined twice"):
        compilation.compile(lambda x: F.custom("twice_plus", CPU(), [x], [VEC],
                                               parameters={"p": 1})[0],
                            custom_extensions=[MLIR_KERNEL, MLIR_KERNEL])(VEC)
    with pytest.raises(CompileError, match="does not exist"):
        compilation.compile(lambda x: x, custom_extensions=["/nonexistent/libk.so"])(VEC)
    with pytest.raises(ValueError, match="use custom for kernels that produce tensors"):
        compilation.compile(lambda x: (F.inplace_custom("k", CPU(), [x], [VEC]), x)[1])(VEC)
