# source: https://github.com/jax-ml/jax/issues/26568
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: scan_apply and vmap_apply are each jitted once at module level and called twice with the same shapes; model is a closed-over module constant, so each compiles once (the thread is about runtime speed, not recompiles).
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

import jax
import jax.numpy as jnp
import flax.linen as nn
class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x=nn.Conv(64, 3)(x)
        x = nn.relu(x)
        x = nn.Dense(10)(x)
        return x
model = CNN()
shape=(32, 32,3)
shape = (8, 8, 3)  # scaffolding: smaller images for CPU
x = jnp.empty((1, *shape))
vs = jax.vmap(lambda rng: model.init(rng, x))(jax.random.split(jax.random.PRNGKey(42), 10))
inputs = jax.random.uniform(jax.random.PRNGKey(42), (10, 256, *shape))
@jax.jit
def scan_apply(x, v):
    def apply(args):
        xa, va = args
        return model.apply(va, xa)
    return jax.lax.map(apply, (x, v))
@jax.jit
def vmap_apply(x, v):
    return jax.vmap(model.apply)(v, x)
scan_apply(inputs, vs)
vmap_apply(inputs, vs)
print('scan_apply')
scan_apply(inputs, vs).block_until_ready()  # scaffolding: one run in place of %timeit
print('vmap_apply')
vmap_apply(inputs, vs).block_until_ready()  # scaffolding: one run in place of %timeit
_report({"jit(scan_apply)", "jit(vmap_apply)"}, 4)  # scaffolding
