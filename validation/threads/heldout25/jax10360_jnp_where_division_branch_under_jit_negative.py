# source: https://github.com/jax-ml/jax/issues/10360
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: f_jit evaluates both jnp.where branches on traced values; 1./(x-1.) at x=1 is inf inside XLA and where picks 0, so f_jit(1.) returns 0 and compiles once for two float calls (same weak type).
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


def f(x):
    print(jnp.abs(x) < 1.)
    return jnp.where(jnp.abs(x) < 1., 1. / (x - 1.), 0.)
# f(1.) # prints false, then fails with division by zero  (scaffolding: left uncalled; Python float division, not jit)

@jax.jit
def f_jit(x):
    return jnp.where(jnp.abs(x) < 1., 1. / (x - 1.), 0.)
print(f_jit(1.))  # scaffolding: the thread's second call, meant for f_jit (it calls f(1.) by mistake)
print(f_jit(0.5))  # scaffolding

# mattjj's reply: involve JAX in the unjitted version
print(f(jnp.array(1.)))
_report({"jit(f_jit)"}, 2)  # scaffolding
