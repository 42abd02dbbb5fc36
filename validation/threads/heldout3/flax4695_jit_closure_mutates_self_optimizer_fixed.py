# source: https://github.com/google/flax/issues/4695
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the maintainer's fix: nnx.jit with the model and optimizer passed in as arguments, so NNX propagates the in-place update; update compiles once for two calls.

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
import jax.numpy as jnp  # scaffolding
import optax
from flax import nnx


class Algorithm:
    def __init__(self, model, lr):  # scaffolding
        self.model = model  # scaffolding
        self.tx = optax.adamw(lr)
        self.optimizer = nnx.ModelAndOptimizer(model, self.tx)

        @nnx.jit
        def update(key, data, model, optimizer):
            def loss_fn(model):
                x, y = data  # scaffolding
                return jnp.mean((model(x) - y) ** 2)  # scaffolding
            grad = nnx.grad(loss_fn)(model)
            optimizer.update(grad)

        self.update = update


model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))  # scaffolding
algo = Algorithm(model, 1e-2)  # scaffolding
data = (jnp.ones((4, 3)), jnp.zeros((4, 1)))  # scaffolding
for _ in range(2):  # scaffolding
    algo.update(jax.random.key(0), data, algo.model, algo.optimizer)
_report({"jit(update)"}, 2)  # scaffolding
