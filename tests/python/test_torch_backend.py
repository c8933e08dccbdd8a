"""``torch.compile(model, backend="mo")``: real torch models (random init)
against eager, forward and training, with dynamic batch sizes; partitioning
around ops mo lacks; tensors crossing without copies; bad inputs."""

import copy
import subprocess
import sys
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional

import mo.torch  # noqa: E402
from mo.torch import Backend, MoTorchError  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_dynamo():
    """Each test compiles from scratch (Dynamo's caches and its automatic
    dynamic shapes carry over between models otherwise)."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    yield
    torch._dynamo.reset()


# -- the models -------------------------------------------------------------------------


def mlp():
    return nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64), nn.ReLU(),
                         nn.Linear(64, 10))


def _benchmark_models():
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).parents[2] / "benchmarks" / "torch_backend.py"
    spec = importlib.util.spec_from_file_location("mo_benchmark_torch_backend", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # Dynamo looks traced code's module up by name
    spec.loader.exec_module(module)
    return module


BasicBlock = _benchmark_models().BasicBlock  # the benchmark's ResNet block


class ResNet(nn.Module):
    """ResNet-18's structure, shallower: a 7x7/2 stem, max-pool, BasicBlocks
    (one downsampling), adaptive average pool, linear."""

    def __init__(self, width=8, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 7, 2, 3, bias=False),
                                  nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        self.blocks = nn.Sequential(BasicBlock(width, width), BasicBlock(width, 2 * width, 2))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(2 * width, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.blocks(self.stem(x))), 1))


class GPTBlock(nn.Module):
    """A pre-norm decoder block with causal self-attention and a GELU MLP."""

    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (d // self.heads) ** -0.5
        causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
        att = att.masked_fill(~causal, float("-inf")).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def encoder_layer():
    return nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True)


def run_compiled(model, inputs, backend=None, dynamic=None, grad=False):
    backend = backend or Backend()
    compiled = torch.compile(model, backend=backend, dynamic=dynamic)
    with torch.set_grad_enabled(grad):
        return [compiled(x) for x in inputs], backend


# -- forward ------------------------------------------------------------------------------


FORWARD = [
    ("mlp", mlp, lambda b: torch.randn(b, 32), 1e-5),
    ("resnet", ResNet, lambda b: torch.randn(b, 3, 32, 32), 1e-4),
    ("encoder_layer", encoder_layer, lambda b: torch.randn(b, 8, 32), 1e-4),
    ("gpt_block", GPTBlock, lambda b: torch.randn(b, 8, 32), 1e-4),
]


@pytest.mark.parametrize("name,make,example,tol", FORWARD, ids=[f[0] for f in FORWARD])
def test_forward_matches_eager_for_every_batch_size(name, make, example, tol):
    """Inference (eval, no grad: the encoder layer takes torch's fused fast
    path, which mo decomposes) with dynamic batch: one compiled graph, every
    op in mo."""
    model = make().eval()
    backend = Backend()
    compiled = torch.compile(model, backend=backend, dynamic=True)
    with torch.no_grad():
        for i, batch in enumerate((2, 5, 3)):
            x = example(batch)
            torch.testing.assert_close(compiled(x), model(x), rtol=tol, atol=tol)
            if i == 0:
                # (AOTAutograd may make Dynamo trace twice the first time:
                # it specializes float attributes such as a norm's eps.)
                first = backend.explanation.graphs
    explained = backend.explanation
    assert explained.graphs == first, "a new batch size recompiled"
    assert explained.fallback_ops == {}, explained
    assert explained.mo_ops == explained.aten_ops > 0


def test_batch_norm_in_train_mode_updates_running_stats():
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU()).train()
    reference = copy.deepcopy(model)
    x = torch.randn(4, 3, 8, 8)
    (y,), backend = run_compiled(model, [x])
    torch.testing.assert_close(y, reference(x), rtol=1e-5, atol=1e-5)
    for ours, theirs in zip(model.buffers(), reference.buffers()):
        torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-6)
    assert backend.explanation.fallback_ops == {}


def test_mark_dynamic_batch_keeps_one_graph():
    model = ResNet().eval()
    x = torch.randn(2, 3, 32, 32)
    torch._dynamo.mark_dynamic(x, 0)
    backend = Backend()
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        for b in (2, 6, 3):  # (Dynamo specializes a size of 1)
            x = torch.randn(b, 3, 32, 32)
            torch._dynamo.mark_dynamic(x, 0)
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
            if b == 2:
                first = backend.explanation.graphs
    assert backend.explanation.graphs == first


# -- training -----------------------------------------------------------------------------


def train(model, x, target, optimizer, compiled, steps=3):
    model = copy.deepcopy(model)
    backend = Backend()
    run = torch.compile(model, backend=backend) if compiled else model
    opt = optimizer(model.parameters(), lr=0.01)
    losses, grads = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(run(x), target)
        loss.backward()
        losses.append(loss.detach())
        grads.append({k: p.grad.clone() for k, p in model.named_parameters()})
        opt.step()
    return losses, grads, model, backend


def assert_training_matches(model, x, optimizer, rtol, atol, steps=3):
    target = torch.randint(0, 10, (x.shape[0],))
    eager = train(model, x, target, optimizer, compiled=False, steps=steps)
    ours = train(model, x, target, optimizer, compiled=True, steps=steps)
    for step in range(steps):
        torch.testing.assert_close(ours[0][step], eager[0][step], rtol=rtol, atol=atol)
        for name, grad in eager[1][step].items():
            torch.testing.assert_close(ours[1][step][name], grad, rtol=rtol, atol=atol,
                                       msg=lambda m: f"step {step}, grad of {name}: {m}")
    for ours_p, eager_p in zip(ours[2].state_dict().values(), eager[2].state_dict().values()):
        torch.testing.assert_close(ours_p, eager_p, rtol=rtol, atol=atol)
    explained = ours[3].explanation
    assert explained.fallback_ops == {}, explained
    assert len(explained.partitions) >= 2  # the forward's and the backward's


@pytest.mark.parametrize("optimizer", [torch.optim.SGD, torch.optim.AdamW],
                         ids=["sgd", "adamw"])
def test_mlp_training_matches_eager(optimizer):
    assert_training_matches(mlp(), torch.randn(16, 32), optimizer, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("optimizer", [torch.optim.SGD, torch.optim.AdamW],
                         ids=["sgd", "adamw"])
def test_cnn_training_matches_eager(optimizer):
    """In float64: batch norm over 4 images makes this net chaotic (an f32
    rounding difference grows ~20x per step), so the comparison over three
    steps is only sharp where rounding is negligible."""
    model = ResNet().double()
    assert_training_matches(model, torch.randn(4, 3, 32, 32, dtype=torch.float64), optimizer,
                            rtol=1e-9, atol=1e-10)


def test_cnn_training_step_in_float32():
    assert_training_matches(ResNet(), torch.randn(4, 3, 32, 32), torch.optim.SGD, rtol=2e-3,
                            atol=2e-4, steps=1)


def test_convolution_gradients_for_every_window():
    """convolution_backward as convolutions, for strides and paddings that
    leave a remainder (the filter gradient's cut) and for bias."""
    for conv, size in [(nn.Conv2d(3, 4, 3, 1, 1), 8), (nn.Conv2d(3, 4, 3, 2, 1, bias=False), 9),
                       (nn.Conv2d(3, 4, 7, 2, 3, bias=False), 16),
                       (nn.Conv2d(3, 4, 1, 2, bias=False), 8),
                       (nn.Conv2d(3, 4, 3, 1, 2, dilation=2), 10)]:
        torch._dynamo.reset()
        conv = conv.double()
        theirs = copy.deepcopy(conv)
        x = torch.randn(2, 3, size, size, dtype=torch.float64)
        x1, x2 = x.clone().requires_grad_(), x.clone().requires_grad_()
        torch.compile(conv, backend=Backend(fallback="error"))(x1).square().sum().backward()
        theirs(x2).square().sum().backward()
        torch.testing.assert_close(x1.grad, x2.grad, rtol=1e-10, atol=1e-10)
        for (name, p), q in zip(conv.named_parameters(), theirs.parameters()):
            torch.testing.assert_close(p.grad, q.grad, rtol=1e-10, atol=1e-10, msg=name)


def test_max_pool_gradient_goes_to_the_first_maximum():
    x = torch.randn(2, 3, 8, 8)
    x[0, 1, 2:4, 2:4] = 5.0  # a tie: torch's gradient goes to the first
    x1, x2 = x.clone().requires_grad_(), x.clone().requires_grad_()
    pool = nn.MaxPool2d(2)
    torch.compile(pool, backend=Backend(fallback="error"))(x1).sum().backward()
    pool(x2).sum().backward()
    assert torch.equal(x1.grad, x2.grad)


# -- partitioning -------------------------------------------------------------------------


class WithLgamma(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(8, 8), nn.Linear(8, 8)

    def forward(self, x):
        return self.b(torch.lgamma(self.a(x).abs() + 1) + torch.lgamma(x.abs() + 2))


def test_unsupported_op_runs_in_torch_with_one_warning():
    model = WithLgamma().eval()
    x = torch.randn(4, 8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (y,), backend = run_compiled(model, [x])
    with torch.no_grad():
        torch.testing.assert_close(y, model(x), rtol=1e-5, atol=1e-5)
    about = [w for w in caught if "lgamma" in str(w.message)]
    assert len(about) == 1, [str(w.message) for w in caught]
    assert issubclass(about[0].category, RuntimeWarning)
    explained = backend.explanation
    assert explained.fallback_ops == {"aten.lgamma.default": 2}
    assert len(explained.partitions) == 2  # the linears on either side
    assert 0 < explained.fusion_rate < 1


def test_fallback_error_names_the_op():
    compiled = mo.torch.compile(WithLgamma(), fallback="error")
    with pytest.raises(Exception) as raised:
        compiled(torch.randn(4, 8))
    inner = getattr(raised.value, "inner_exception", raised.value)
    assert isinstance(inner, MoTorchError)
    assert "aten.lgamma.default" in str(inner)


def test_complex_values_stay_in_torch():
    def f(x):
        z = torch.view_as_complex(x.reshape(4, 2).contiguous())
        return torch.view_as_real(z * z).sum(-1) + x.reshape(4, 2).sum(-1)

    x = torch.randn(8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        (y,), _ = run_compiled(f, [x])
    torch.testing.assert_close(y, f(x))


def test_backend_options_are_checked():
    with pytest.raises(ValueError, match="fallback"):
        Backend(fallback="ignore")
    with pytest.raises(ValueError, match="threads"):
        Backend(threads=0)


def test_explain_reports_partitions_and_kernels():
    explained = mo.torch.explain(GPTBlock().eval(), torch.randn(2, 8, 32))
    assert explained.fusion_rate == 1.0
    assert explained.aten_ops == sum(sum(p.ops.values()) for p in explained.partitions)
    assert 0 < explained.kernels
    text = str(explained)
    assert "aten.native_layer_norm.default" in text and "100.0%" in text


def test_log_prints_each_partition(capfd):
    import os

    os.environ["MO_TORCH_LOG"] = "1"
    try:
        run_compiled(mlp().eval(), [torch.randn(2, 32)])
    finally:
        del os.environ["MO_TORCH_LOG"]
    out = capfd.readouterr().out
    assert "[mo.torch] mo_partition_0" in out and "mo.graph @mo_partition_0" in out
    assert "mo.matmul" in out


def test_registered_as_a_dynamo_backend():
    """`backend="mo"` resolves through the torch_dynamo_backends entry point
    (in a fresh process: the name must come from the installed metadata)."""
    code = ("import torch\n"
            "assert 'mo' in torch._dynamo.list_backends(exclude_tags=())\n"
            "m = torch.nn.Linear(4, 3)\n"
            "x = torch.randn(2, 4)\n"
            "torch.testing.assert_close(torch.compile(m, backend='mo')(x), m(x))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr


# -- memory ----------------------------------------------------------------------------------


def test_inputs_are_read_in_place_and_outputs_are_fresh(monkeypatch):
    from mo.compiler import Executable

    seen = []
    run = Executable.run_views

    def spy(self, views):
        addresses = [address for address, _, _ in views]
        seen.append((addresses[:self.num_inputs], addresses[self.num_inputs:]))
        return run(self, views)

    monkeypatch.setattr(Executable, "run_views", spy)
    model = nn.Linear(16, 8).eval()
    x = torch.randn(4, 16)
    (y,), _ = run_compiled(model, [x])
    (read, written), = seen
    assert x.data_ptr() in read and model.weight.data_ptr() in read
    assert written == [y.data_ptr()]
    assert y.untyped_storage().data_ptr() not in {x.data_ptr(), model.weight.data_ptr()}
    y.zero_()
    assert x.abs().sum() > 0 and model.weight.abs().sum() > 0


def test_non_contiguous_and_offset_inputs():
    def f(x, y):
        return torch.relu(x) * 2 + y

    base = torch.randn(10, 10)
    x = base.t()[1:7, :6]  # transposed, with an offset
    y = base[2:8, 3:9]     # an offset window of rows of 10
    compiled = torch.compile(f, backend=Backend(fallback="error"))
    torch.testing.assert_close(compiled(x, y), f(x, y))


def test_integer_and_bool_inputs():
    emb = nn.Embedding(20, 8).eval()
    ids = torch.randint(0, 20, (3, 5))
    (y,), backend = run_compiled(emb, [ids])
    torch.testing.assert_close(y, emb(ids))
    assert backend.explanation.fallback_ops == {}

    def masked(x, m):
        return torch.where(m, x, -x).sum(1)

    x, m = torch.randn(4, 6), torch.rand(4, 6) > 0.5
    torch.testing.assert_close(torch.compile(masked, backend=Backend(fallback="error"))(x, m),
                               masked(x, m))


def test_bfloat16_model():
    model = nn.Sequential(nn.Linear(16, 16), nn.SiLU()).to(torch.bfloat16).eval()
    x = torch.randn(4, 16, dtype=torch.bfloat16)
    (y,), _ = run_compiled(model, [x])
    with torch.no_grad():
        torch.testing.assert_close(y.float(), model(x).float(), rtol=2e-2, atol=2e-2)


def test_sparse_input_is_not_a_crash():
    def f(x):
        return (x * 2).to_dense()

    x = torch.randn(4, 4).to_sparse()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            y = torch.compile(f, backend=Backend())(x)
        except Exception as e:  # torch may refuse sparse tensors itself: never a crash
            assert "sparse" in str(e).lower(), e
        else:
            torch.testing.assert_close(y, f(x))


def test_numpy_sees_results_it_can_read():
    """Outputs are ordinary torch tensors (numpy views included)."""
    (y,), _ = run_compiled(nn.Linear(4, 2).eval(), [torch.randn(3, 4)])
    assert isinstance(y, torch.Tensor) and y.is_contiguous()
    np.testing.assert_array_equal(y.numpy(), y.detach().numpy())


def test_freeze_relays_filters_once_per_parameter_version(monkeypatch):
    """Backend(freeze=True): a convolution filter's [R, S, C, F] copy is made
    once, and again only after the parameter changes in place."""
    from mo.torch import _aten

    made = []
    permute = torch.Tensor.permute

    def counting(self, *dims):
        if dims == (2, 3, 1, 0):
            made.append(tuple(self.shape))
        return permute(self, *dims)

    model = ResNet().eval()
    x = torch.randn(2, 3, 32, 32)
    backend = Backend(freeze=True, fallback="error")
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        monkeypatch.setattr(torch.Tensor, "permute", counting)
        compiled(x)
        assert made == []  # every filter came from the cache
        model.stem[0].weight.mul_(0.5)  # a new version of one filter
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        assert made == [tuple(model.stem[0].weight.shape)]
        model.load_state_dict(ResNet().state_dict())  # every filter anew
        monkeypatch.setattr(torch.Tensor, "permute", permute)
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    assert backend.explanation.fallback_ops == {}
    assert any("convolution_rscf" in op for p in backend.explanation.partitions for op in p.ops)
    assert _aten.relaid_filter.__name__ not in str(backend.explanation)


def test_relaid_convolution_runs_in_torch_too():
    """The node freeze rewrites a convolution into is still torch's to run
    where mo does not take it."""
    from mo.torch import _aten

    x, w, b = torch.randn(2, 3, 9, 9), torch.randn(4, 3, 3, 3), torch.randn(4)
    relaid = _aten.relaid_filter(w)
    assert relaid.shape == (3, 3, 3, 4) and relaid.is_contiguous()
    torch.testing.assert_close(
        _aten.convolution_rscf(x, relaid, b, [2, 2], [1, 1], [1, 1], False, [0, 0], 1),
        F.conv2d(x, w, b, stride=2, padding=1))


def test_other_devices_stay_in_torch_and_mixed_devices_are_torchs_error():
    def f(x):
        return torch.relu(x) * 2

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = torch.compile(f, backend=Backend())(torch.randn(4, 4, device="meta"))
    assert y.device.type == "meta" and y.shape == (4, 4)
    assert any("meta" in str(w.message) for w in caught), [str(w.message) for w in caught]
    torch._dynamo.reset()
    with pytest.raises(Exception, match="device"):
        torch.compile(lambda a, b: a + b, backend=Backend())(torch.randn(4),
                                                            torch.randn(4, device="meta"))


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_attention_gradients_match_eager(causal):
    """scaled_dot_product_attention trains as its math (matmuls and a
    softmax) in mo: the CPU flash kernel's decomposition returns the
    attention weights where its backward expects log-sum-exps."""
    q, k, v = (torch.randn(2, 4, 8, 16, dtype=torch.float64, requires_grad=True)
               for _ in range(3))

    def attention(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    backend = Backend(fallback="error")
    out = torch.compile(attention, backend=backend)(q, k, v)
    grad = torch.randn_like(out)
    ours = torch.autograd.grad(out, (q, k, v), grad)
    reference = attention(q, k, v)
    theirs = torch.autograd.grad(reference, (q, k, v), grad)
    torch.testing.assert_close(out, reference, rtol=1e-12, atol=1e-12)
    for a, b in zip(ours, theirs):
        torch.testing.assert_close(a, b, rtol=1e-12, atol=1e-12)


class EncoderClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer, self.head = encoder_layer(), nn.Linear(32, 10)

    def forward(self, x):
        return self.head(self.layer(x).mean(1))


def test_encoder_layer_training_matches_eager():
    model = EncoderClassifier().double()
    assert_training_matches(model, torch.randn(4, 8, 32, dtype=torch.float64),
                            torch.optim.AdamW, rtol=1e-9, atol=1e-10, steps=2)


class _Lambda(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


MORE_OPS = [
    ("group_norm", lambda: nn.Sequential(nn.Conv2d(4, 8, 3), nn.GroupNorm(2, 8), nn.SiLU()),
     (2, 4, 8, 8)),
    ("cumsum_flip", lambda: _Lambda(lambda x: x.cumsum(1) * x.flip(0)), (3, 7)),
    ("elu_mish", lambda: _Lambda(lambda x: F.elu(x, 0.7) + F.mish(x) + F.hardswish(x)), (4, 8)),
    ("topk", lambda: _Lambda(lambda x: torch.topk(x, 3, dim=1).values * 2), (4, 9)),
    ("conv1d", lambda: nn.Conv1d(4, 6, 3, stride=2, padding=1), (2, 4, 11)),
    ("upsample_nearest", lambda: nn.Upsample(scale_factor=2, mode="nearest"), (2, 3, 4, 5)),
    ("upsample_bilinear", lambda: nn.Upsample(scale_factor=2, mode="bilinear"), (2, 3, 4, 5)),
    ("reflection_pad", lambda: nn.ReflectionPad2d((2, 1, 1, 2)), (2, 3, 6, 6)),
    ("take_rows", lambda: _Lambda(lambda x: x[torch.tensor([2, 0, 2, 1])] * 2), (3, 5)),
    ("attention_module", lambda: _Lambda(
        lambda x, m=nn.MultiheadAttention(16, 2, batch_first=True).double(): m(x, x, x)[0]),
     (2, 5, 16)),
]


@pytest.mark.parametrize("name,make,shape", MORE_OPS, ids=[m[0] for m in MORE_OPS])
def test_more_ops_forward_and_gradients(name, make, shape):
    """Ops beyond the reference models, all in mo (fallback="error"),
    forward and gradients against eager in float64."""
    model = make().double()
    reference = copy.deepcopy(model)
    x = torch.randn(*shape, dtype=torch.float64)
    x1, x2 = x.clone().requires_grad_(), x.clone().requires_grad_()
    out = torch.compile(model, backend=Backend(fallback="error"))(x1)
    expected = reference(x2)
    torch.testing.assert_close(out, expected, rtol=1e-10, atol=1e-10)
    out.square().sum().backward()
    expected.square().sum().backward()
    torch.testing.assert_close(x1.grad, x2.grad, rtol=1e-9, atol=1e-10)
    for (pname, p), q in zip(model.named_parameters(), reference.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-9, atol=1e-10, msg=pname)


def test_integer_remainder_follows_the_divisor_sign():
    def f(x):
        return (x * 3 + 1) // 2 % 5 + torch.remainder(x, -3)

    x = torch.randint(-50, 50, (4, 5))
    torch.testing.assert_close(torch.compile(f, backend=Backend(fallback="error"))(x), f(x))


def test_embedding_gradients_add_up_for_repeated_ids():
    emb = nn.Embedding(10, 4).double()
    reference = copy.deepcopy(emb)
    ids = torch.tensor([[1, 3, 1], [3, 3, 9]])
    torch.compile(emb, backend=Backend())(ids).square().sum().backward()
    reference(ids).square().sum().backward()
    torch.testing.assert_close(emb.weight.grad, reference.weight.grad, rtol=1e-12, atol=1e-12)
