# source: https://github.com/patrick-kidger/equinox/issues/149
# expect: trace-time-error at line 54
# runtime: ERROR TypeError
# why: nn.MaxPool2d stores its reduction operation (a function) as a pytree leaf, so passing the model to a plain @jax.jit function raises TypeError (a function is not a valid JAX type); the maintainer: this is what filtering is for.

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
import jax.random as jrandom
import equinox as eqx
import equinox.nn as nn
from jaxtyping import Array  # scaffolding: `equinox.custom_types` no longer exists


class Net(eqx.Module):
  maxp: eqx.Module

  def __init__(self):
      super().__init__()
      self.maxp = nn.MaxPool2d(kernel_size=3, stride=2)

  def __call__(self, x: Array) -> Array:
      return self.maxp(x)


@jax.jit  #breaks
# @eqx.filter_jit  #works
def forward(model, x):
    return jax.vmap(model)(x)

model = Net()
random_image = jax.random.uniform(key=jrandom.PRNGKey(0), shape=(1, 3, 32, 32))  # scaffolding: 224x224 cut to 32x32
try:  # scaffolding
    output = forward(model, random_image)
    print(output.shape)
    _report({"jit(forward)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
