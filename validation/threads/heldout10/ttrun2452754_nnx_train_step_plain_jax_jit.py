# source: https://www.tt.run/en/p/2452754
# expect: stale-closure at line 57
# runtime: COMPILES 1 CALLS 3
# why: The training step mutates the Flax NNX model and optimizer in place but is decorated with plain @jax.jit; the in-place parameter updates made on the traced copies are not propagated back, so every step returns the same loss and the model never changes (the post: loss stuck, parameter hashes unchanged).

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
import hashlib

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class TinyModel(nnx.Module):  # scaffolding: stand-in for the post's tiny LLM
    def __init__(self, rngs):
        self.l1 = nnx.Linear(4, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.l2(jax.nn.relu(self.l1(x)))


def param_hash(model):  # the post's trick: hash the raw parameter bytes
    leaves = jax.tree.leaves(nnx.state(model, nnx.Param))
    return hashlib.sha1(b"".join(bytes(jax.device_get(p).tobytes()) for p in leaves)).hexdigest()[:12]


model = TinyModel(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
x = jax.random.normal(jax.random.PRNGKey(1), (16, 4))  # scaffolding
y = jnp.zeros((16, 2))  # scaffolding


@jax.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


for step in range(3):  # scaffolding: three steps
    loss = train_step(model, optimizer, x, y)
    print(step, float(loss), param_hash(model))
_report({"jit(train_step)"}, 3)  # scaffolding
