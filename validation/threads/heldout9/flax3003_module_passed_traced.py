# source: https://github.com/google/flax/issues/3003
# expect: trace-time-error at line 49
# runtime: ERROR TypeError
# why: the linen model is passed as an ordinary argument of the jitted update so that its other methods can be applied; a Module is not a pytree of arrays, so jit raises TypeError (not a valid JAX type).

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
import jax
import jax.numpy as jnp
import flax.linen as nn


class Model(nn.Module):  # scaffolding: 'a class called model with multiple methods'
    def setup(self):
        self.dense = nn.Dense(3)

    def __call__(self, x):
        return self.dense(x)

    def some_method(self, x):
        return 2 * self.dense(x)


model = Model()  # scaffolding
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))  # scaffolding


@jax.jit
def update(model, params, x):  # scaffolding: the reporter's 'jax.jit function'
    return model.apply(params, x, method=Model.some_method)


try:  # scaffolding
    update(model, params, jnp.ones((1, 4)))
    print("COMPILES 1 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
