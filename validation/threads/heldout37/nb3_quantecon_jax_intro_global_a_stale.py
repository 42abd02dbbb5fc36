# source: https://github.com/QuantEcon/cbc_2024/blob/eb61f33f3875ade4f0ee6d31380a539d956ecbd4/3_wednesday/jax_intro.ipynb
# expect: stale-closure at line 36
# runtime: COMPILES 2 CALLS 3
# why: The jitted f reads the global a, which the notebook then rebinds to 42; the second call with the same shape reuses the trace and still returns 1 + x, and only the call with a new shape retraces and sees 42.

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
# (numpy random/purity demo cells before this one cut)

a = 1  # global

@jax.jit
def f(x):
    return a + x
x = jnp.ones(2)
print(f(x))  # scaffolding: print the notebook cell's displayed value
a = 42
print(f(x))  # scaffolding: still [2. 2.] -- the traced value of a is reused
x = jnp.ones(3)
print(f(x))  # scaffolding: new shape, retraced, now [43. 43. 43.]
_report({"jit(f)"}, 3)
