# source: https://github.com/google/flax/issues/5548
# expect: changing-static at line 75
# runtime: COMPILES 3 CALLS 3
# why: Each epoch builds a new nnx.Optimizer around a new optax.adam(...); the GradientTransformation's fresh init/update closures sit in the optimizer's static graph definition and hash by identity, so nnx.jit's cache misses and train_one_epoch is traced and compiled again every epoch (3 compiles for 3 epochs), as the reporter saw.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import optax
from flax import nnx


class Generator(nnx.Module):  # scaffolding
    def __init__(self, rngs):
        self.lin = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, z):
        return self.lin(z)


class Discriminator(nnx.Module):  # scaffolding
    def __init__(self, rngs):
        self.lin = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        return self.lin(x)


rngs = nnx.Rngs(0)  # scaffolding
gen = Generator(rngs=rngs)  # scaffolding
gen_opt = nnx.Optimizer(gen, optax.adam(1e-3), wrt=nnx.Param)  # scaffolding
metrics = nnx.MultiMetric(loss=nnx.metrics.Average("loss"))  # scaffolding
n_epochs = 3  # scaffolding


@nnx.jit
def train_one_epoch(gen, dis, gen_opt, dis_opt, metrics, rngs):
    z = jax.random.normal(rngs(), (8, 4))  # scaffolding: the epoch body
    def dis_loss(dis):  # scaffolding
        return jnp.mean(dis(gen(z)) ** 2)
    loss, grads = nnx.value_and_grad(dis_loss)(dis)  # scaffolding
    dis_opt.update(dis, grads)  # scaffolding
    metrics.update(loss=loss)  # scaffolding

for epoch in range(n_epochs):
    dis = Discriminator(rngs=rngs)
    dis_opt = nnx.Optimizer(
        dis,
        optax.adam(1e-3),  # scaffolding: the issue writes optax.adam(...)
        wrt=nnx.Param,
    )

    train_one_epoch(
        gen,
        dis,
        gen_opt,
        dis_opt,
        metrics,
        rngs,
    )
_report({"jit(train_one_epoch)"}, n_epochs)  # scaffolding
