# source: https://github.com/IanQS/numpy_to_jax/blob/0301de5f7595223117312a36d88d79d3bc135502/solutions/sol_06_sharp_edges.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: The notebook's solution replaces the Python if with jax.lax.cond, so grad of the jitted function traces without error and is reused for both branches and later inputs.

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
import numpy as np
from jax import grad, jit
from jax import lax
from jax import random
import jax
import jax.numpy as jnp

@jit
def jit_compat_f(x):
    return jax.lax.cond(x < 3, lambda y: 3. * y ** 3, lambda y: -4 * y, x)

print(grad(jit_compat_f)(2.))  # ok!
print(grad(jit_compat_f)(4.))  # ok!
print(grad(jit_compat_f)(1.))  # scaffolding
print(grad(jit_compat_f)(5.))  # scaffolding
_report({"jit(jit_compat_f)"}, 4)  # scaffolding
