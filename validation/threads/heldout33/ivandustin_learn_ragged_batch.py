# source: https://github.com/ivandustin/learn/blob/58b263502b981a66fd4e16e6a9dfdbf0946a5567/learn/batch.py
# expect: shape-churn at line 73
# runtime: COMPILES 2 CALLS 8
# why: batch() slices a permutation with range(0, total, size) and never drops the short last slice, so the nnx.jit-ed train step sees a second batch shape every epoch and compiles twice.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
import numpy as np  # scaffolding
from numpy.random import permutation
from optax import adam
from optax.losses import softmax_cross_entropy_with_integer_labels
from flax.nnx import Embed, Linear, List, Module, Optimizer, Param, Rngs, jit, relu, value_and_grad, vmap
from jax.numpy import array


# learn/modules/embeds.py
class Embeds(Module):
    def __init__(self, width: int, lengths: list[int], rngs: Rngs):
        self.embeds = List([Embed(n, width, rngs=rngs) for n in lengths])  # nnx.List as in the later commit 33f18fb (flax 0.12 needs it)

    def __call__(self, xs):
        return array([self.embeds[i](x) for i, x in enumerate(xs)])


class Fn(Module):  # scaffolding: stand-in for uat.cube.Fn (package not available)
    def __init__(self, dims, classes, neurons, rngs):
        self.hidden = Linear(dims, neurons, rngs=rngs)
        self.out = Linear(neurons, classes, rngs=rngs)

    def __call__(self, x):
        return self.out(relu(self.hidden(x))).sum(axis=0)


# learn/modules/model.py
class Model(Module):
    def __init__(
        self, embeds: list[int], classes: int, dims: int, neurons: int, rngs: Rngs
    ):
        self.fn = Fn(dims, classes, neurons, rngs=rngs)
        self.embeds = Embeds(dims, embeds, rngs=rngs)

    def __call__(self, x):
        return self.fn(self.embeds(x))


# learn/batch.py
def batch(size, x, y):
    total = x.shape[0]
    while True:
        indices = permutation(total)
        for i in range(0, total, size):
            j = indices[i : i + size]
            yield x[j], y[j]


# learn/train.py
@jit
def train(optimizer, model, x, y):
    def loss(model):
        yhat = vmap(model)(x)
        return softmax_cross_entropy_with_integer_labels(yhat, y).mean()

    loss, grads = value_and_grad(loss)(model)
    optimizer.update(model, grads)  # flax 0.12 API (was optimizer.update(grads))
    return loss


# bin/train (checkpointing and argv parsing cut)
rng = np.random.default_rng(0)  # scaffolding: stand-in for the npz train file
x = rng.integers(0, 2, size=(100, 2))  # scaffolding: 100 records, 2 embedded fields
y = x[:, 0] ^ x[:, 1]  # scaffolding: xor labels
size = 32  # scaffolding: argv[2]
steps = 8  # scaffolding: argv[3]
batches = batch(size, x, y)
model = Model([2, 2], 2, 6, 3, rngs=Rngs(0))  # scaffolding: learn.model.create with tests/xox sizes
optimizer = Optimizer(model, adam(1e-3), wrt=Param)  # flax 0.12 API (wrt added)
for step in range(1, steps + 1):
    x, y = next(batches)
    loss = train(optimizer, model, x, y)
    if step % 100 == 0:
        print(step, loss)
_report({"jit(train)"}, steps)  # scaffolding
