# source: https://github.com/jax-ml/jax/issues/9168
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: model (a plain class instance, hashed by identity) is a static argument of pjit, so its Python loop unrolls at trace time; the same instance twice and pjit re-created inline hit one cache entry: 1 compile for 2 calls.
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding
from jax.experimental.pjit import pjit  # scaffolding
from jax.sharding import Mesh  # scaffolding: jax.experimental.maps.mesh no longer exists


class MyModel:

  def __init__(self, num_layers: int):
    self.num_layers = num_layers

  def compute(self, x):
    for i in range(self.num_layers):
      # Imagine here a real implementation of neural networks.
      x = x + 10
    return x

def run_my_model(x, model):
  print("Runing/Tracing run_my_model")
  return model.compute(x)


input = jnp.arange(4)
model = MyModel(num_layers=3)

for _ in range(2):  # scaffolding: the reporter's call, made twice
  with Mesh(np.array(jax.devices()), ["data"]):  # scaffolding: was mesh(jax.devices(), ["data"])
    pjit(run_my_model,  # scaffolding (next line): in_axis_resources=None, out_axis_resources=None dropped, removed from pjit
         static_argnums=1)(input, model)
_report({"jit(run_my_model)"}, 2)  # scaffolding
