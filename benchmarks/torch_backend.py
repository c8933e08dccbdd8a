"""torch.compile backends side by side: eager, Inductor and mo.

For a ResNet-18 (torchvision's layout, batch 8, 64x64 images), an
``nn.TransformerEncoderLayer`` (d=256, 4 heads, batch 8 x 64 tokens) and a
small MLP (batch 4: what each engine costs per call): the
forward (eval, no grad) and one training step (forward, cross-entropy,
backward, SGD step), each as the median of timed runs after warm-up, the
compile time (first call minus a steady one) and mo's fusion rate (aten ops
in mo partitions / all). ``mo freeze`` is ``Backend(freeze=True)``: filters
laid out once per parameter version (Inductor's default does not freeze).
Outputs are checked against eager before timing. Every backend compiles
into a private cache (cold compiles). Not a test.

Run: python benchmarks/torch_backend.py [--repeats N] [--models resnet18,encoder,mlp]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import tempfile
import time
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

import mo.torch


class BasicBlock(nn.Module):
    """ResNet's basic block (tests/python/test_torch_backend.py builds on it)."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.b2(self.c2(F.relu(self.b1(self.c1(x)))))
        return F.relu(y + (x if self.down is None else self.down(x)))


def resnet18(classes=10):
    layers, cin = [], 64
    for cout, stride in [(64, 1), (128, 2), (256, 2), (512, 2)]:
        layers += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout)]
        cin = cout
    return nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
                         nn.MaxPool2d(3, 2, 1), *layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(512, classes))


class Encoder(nn.Module):
    def __init__(self, d=256, classes=10):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        return self.head(self.layer(x).mean(1))


def mlp():  # small: the per-call overhead of each engine
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))


MODELS = {
    "resnet18": (resnet18, lambda: torch.randn(8, 3, 64, 64)),
    "encoder": (Encoder, lambda: torch.randn(8, 64, 256)),
    "mlp": (mlp, lambda: torch.randn(4, 32)),
}


ENGINES = ("inductor", "mo", "mo freeze")


def backends():
    return {"eager": None, "inductor": "inductor", "mo": mo.torch.Backend(fallback="silent"),
            "mo freeze": mo.torch.Backend(fallback="silent", freeze=True)}


def median_time(fn, repeats):
    for _ in range(2):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def forward_row(name, repeats):
    make, example = MODELS[name]
    torch.manual_seed(0)
    model, x = make().eval(), example()
    with torch.no_grad():
        reference = model(x)
    row = {}
    for engine, backend in backends().items():
        torch._dynamo.reset()
        run = model if backend is None else torch.compile(model, backend=backend)
        with torch.no_grad():
            start = time.perf_counter()
            out = run(x)
            first = time.perf_counter() - start
            torch.testing.assert_close(out, reference, rtol=1e-3, atol=1e-3)
            t = median_time(lambda: run(x), repeats)
        row[engine] = (t, max(first - t, 0.0), backend)
    return row


def train_row(name, repeats):
    make, example = MODELS[name]
    torch.manual_seed(0)
    base, x = make().train(), example()
    target = torch.randint(0, 10, (x.shape[0],))
    row = {}
    for engine, backend in backends().items():
        torch._dynamo.reset()
        model = copy.deepcopy(base)
        run = model if backend is None else torch.compile(model, backend=backend)
        opt = torch.optim.SGD(model.parameters(), lr=1e-3)

        def step():
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(run(x), target)
            loss.backward()
            opt.step()
            return loss

        start = time.perf_counter()
        step()
        first = time.perf_counter() - start
        t = median_time(step, repeats)
        row[engine] = (t, max(first - t, 0.0), backend)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args()
    # Cold compiles: private caches (read when each backend compiles).
    os.environ.setdefault("MO_CACHE_DIR", tempfile.mkdtemp(prefix="mo-bench-"))
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", tempfile.mkdtemp(prefix="inductor-bench-"))
    warnings.simplefilter("ignore")
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; ms per call "
          "(x eager: below 1 is faster than eager); compile s")
    print(f"{'row':<22}{'eager':>9}" + "".join(f"{e:>20}" for e in ENGINES)
          + "  compile s: inductor / mo / mo freeze   mo fusion")
    for name in args.models.split(","):
        for kind, measure in (("forward", forward_row), ("train step", train_row)):
            row = measure(name, args.repeats)
            eager = row["eager"][0]
            cells = [f"{eager * 1e3:9.3f}"]
            for engine in ENGINES:
                t = row[engine][0]
                cells.append(f"{t * 1e3:9.3f} ({t / eager:5.2f}x)".rjust(20))
            explained = row["mo"][2].explanation
            compiles = " / ".join(f"{row[e][1]:.2f}" for e in ENGINES)
            print(f"{name + ' ' + kind:<22}{''.join(cells)}  {compiles:>28}   "
                  f"{100 * explained.fusion_rate:5.1f}%")


if __name__ == "__main__":
    main()
