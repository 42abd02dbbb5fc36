# source: https://github.com/jax-ml/jax/issues/6539
# expect: trace-time-error at line 46
# runtime: ERROR TypeError
# why: the scan carry f (and each deriv result) is a Python callable, not a pytree of arrays, so lax.scan raises TypeError (function is not a valid JAX type); calling deriv directly three times works.
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
from jax.lax import scan  # scaffolding

f = lambda x: jnp.sin(x) * x  # scaffolding: the notebook's f is not in the stored text
x = jnp.linspace(0.0, 1.0, 4)  # scaffolding


def deriv(f, x):
    """ Returns grad function and grad evaluated at x."""
    y, vjp_fn = jax.vjp(f, x)
    return lambda x: vjp_fn(x)[0], vjp_fn(jnp.ones(y.shape))[0]

# This works
df_fn, df = deriv(f, x)
d2f_fn, d2f = deriv(df_fn, x)
d3f_fn, d3f = deriv(d2f_fn, x)

try:  # scaffolding
    # This fails
    du = scan(lambda carry, _: deriv(carry, x), f, None, length=3)
    _report({"jit(scan)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(str(e)[:200])  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
