# source: https://github.com/google/flax/issues/3003
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: cgarciae's answer marks the (hashable, unbound) model and the method as static_argnums, so they are compile-time constants; train_step compiles once and is reused for new inputs.

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
from functools import partial


class Model(nn.Module):  # scaffolding
    def setup(self):
        self.dense = nn.Dense(3)

    def __call__(self, x):
        return self.dense(x)

    def some_method(self, x):
        return 2 * self.dense(x)


model = Model()  # scaffolding
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))  # scaffolding


@partial(jax.jit, static_argnums=(0, 1))
def train_step(model, some_method, x):
   y = model.apply(params, x, method=some_method)
   return y  # scaffolding: the '...' of the answer


train_step(model, Model.some_method, jnp.ones((1, 4)))  # scaffolding
train_step(model, Model.some_method, jnp.zeros((1, 4)))  # scaffolding
_report({"jit(train_step)"}, 2)  # scaffolding
