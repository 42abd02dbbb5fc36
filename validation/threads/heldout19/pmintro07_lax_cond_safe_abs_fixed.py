# source: https://github.com/patemotter/jax-intro/blob/main/07_control_flow.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the notebook's fix: lax.cond under jit; both signs share one compile (2 calls), grad calls run outside jit.
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
import jax.numpy as jnp
import jax.lax as lax
import numpy as np

def safe_abs(x):
    return lax.cond(
        x >= 0,
        lambda x: x,        # True branch
        lambda x: -x,       # False branch
        x                   # Operand passed to whichever branch runs
    )

# Works under jit!
jit_abs = jax.jit(safe_abs)
print(f"safe_abs(3.0)  = {jit_abs(jnp.float32(3.0))}")
print(f"safe_abs(-3.0) = {jit_abs(jnp.float32(-3.0))}")

# And it's differentiable
print(f"grad(safe_abs)(3.0)  = {jax.grad(safe_abs)(3.0)}")
print(f"grad(safe_abs)(-3.0) = {jax.grad(safe_abs)(-3.0)}")
_report({"jit(safe_abs)"}, 2)  # scaffolding
