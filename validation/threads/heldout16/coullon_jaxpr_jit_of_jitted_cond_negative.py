# source: https://github.com/jeremiecoullon/jax_reading_group
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: jax_cond1 and jax_cond2 are already @jit functions; wrapping them again with jit(...) at each call site still reuses one compile per function for the calls with 4. and -4., and lax.cond/jnp.where keep the branch on the traced value legal.
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


import jax.numpy as jnp  # scaffolding: imports cut to what the cells use
from jax import jit  # scaffolding

from jax import lax
# python version
def python_cond(x):
    if x >0:
        return 2*x
    else:
        return 0

@jit
def jax_cond1(x):
    return lax.cond(x>0., 
                    lambda y: 2.*y, 
                    lambda _: 0., 
                    x)

@jit
def jax_cond2(x):
    return jnp.where(x>0, 2*x, 0.)

# jitting also works
print(jit(jax_cond1)(4.))
print(jit(jax_cond2)(4.))
print(jit(jax_cond1)(-4.))
print(jit(jax_cond2)(-4.))
_report({"jit(jax_cond1)", "jit(jax_cond2)"}, 4)  # scaffolding
