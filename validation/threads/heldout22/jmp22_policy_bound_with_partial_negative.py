# source: https://github.com/google-deepmind/jmp/issues/22
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: jit(partial(layer, my_policy=my_policy)) is built once and the bound policy never enters tracing as an argument, so the compiled layer is reused for three calls.
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
# google-deepmind/jmp issue #22: the reporter's variant, the policy as an argument bound with functools.partial before jit
from functools import partial  # scaffolding

import jax  # scaffolding
from jax import jit  # scaffolding
import jax.numpy as jnp  # scaffolding
import jmp  # scaffolding

my_policy = jmp.get_policy("params=float32,compute=float16,output=float32")  # scaffolding


def layer(params, x, my_policy):
  params, x = my_policy.cast_to_compute((params, x))
  w, b = params
  y = x @ w + b
  return my_policy.cast_to_output(y)


layer_compiled = jit(partial(layer, my_policy=my_policy))

params = (jnp.ones((3, 2)), jnp.zeros(2))  # scaffolding
for _ in range(3):  # scaffolding
  layer_compiled(params, jnp.ones((4, 3)))
_report({"jit(layer)"}, 3)  # scaffolding
