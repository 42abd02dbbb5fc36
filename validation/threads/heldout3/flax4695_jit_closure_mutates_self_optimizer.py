# source: https://github.com/google/flax/issues/4695
# expect: stale-closure at line 45
# runtime: ERROR ValueError
# why: the jax.jit-ed update closes over self.model and self.optimizer and updates them in place; NNX state captured from outside the trace cannot be used or mutated inside it, so flax 0.12 raises ValueError (the reporter, on an older flax, got a leaked tracer in the model state instead).

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
    def __init__(self, model, lr):  # scaffolding: the thread shows `__init__(self, ...)`
        self.model = model  # scaffolding
        self.tx = optax.adamw(lr)
        self.optimizer = nnx.ModelAndOptimizer(model, self.tx)

        @jax.jit
        def update(key, data):
            def loss_fn(model):
                x, y = data  # scaffolding
                return jnp.mean((model(x) - y) ** 2)  # scaffolding
            grad = nnx.grad(loss_fn)(self.model)
            self.optimizer.update(grad)

        self.update = update


model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))  # scaffolding
algo = Algorithm(model, 1e-2)  # scaffolding
data = (jnp.ones((4, 3)), jnp.zeros((4, 1)))  # scaffolding
try:  # scaffolding
    algo.update(jax.random.key(0), data)
    _report({"jit(update)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
