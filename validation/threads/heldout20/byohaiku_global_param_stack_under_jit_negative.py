# source: https://dm-haiku.readthedocs.io/en/latest/notebooks/build_your_own_haiku.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the tutorial's mini-Haiku transform pushes params on a global stack, reads them with get_param inside the traced function and pops them; jax.jit(apply) works because the global state is restored and outputs depend only on inputs; a second call with new parameter values reuses the compile.
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


class MyModule:

  def apply(self, x):
    return self.w * x

def my_stateless_apply(params, x):
  return params['w'] * x

# Global state which holds the parameters for the transformed function.
# get_param uses this to know where to get params from.
current_params = []

def transform(f):

  def apply_f(params, *args, **kwargs):
    current_params.append(params)
    outs = f(*args, **kwargs)
    current_params.pop()
    return outs

  return apply_f


def get_param(identifier):
  return current_params[-1][identifier]

params = dict(w=5)
my_stateless_apply(params, 5)

class MyModule:
  def apply(self, x):
    return get_param('w') * x

transform(MyModule().apply)(params, 5)

import jax
import jax.numpy as jnp

def linear(x):
  return x @ get_param('w') + get_param('b')

params = dict(w=jnp.ones((3, 5)), b=jnp.ones((5,)))
apply = transform(linear)

jax.jit(apply)(params, jnp.ones((10, 3)))
jax.jit(apply)(dict(w=jnp.zeros((3, 5)), b=jnp.zeros((5,))), jnp.ones((10, 3)))  # scaffolding: a second call with new-valued params of the same shapes
print("current_params left empty:", current_params == [])  # scaffolding
_report({"jit(apply_f)"}, 2)  # scaffolding
