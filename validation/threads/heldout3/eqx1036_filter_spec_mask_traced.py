# source: https://github.com/patrick-kidger/equinox/issues/1036
# expect: trace-time-error at line 34
# runtime: ERROR ValueError
# why: params_mask, a tuple of Python bools, is a traced argument of the jax.jit-ed partition, so its leaves arrive as traced bool arrays and eqx.partition raises ValueError (filter_spec leaves cannot be traced arrays).

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
import equinox as eqx

@jax.jit
def partition(params, params_mask):
    return eqx.partition(params, filter_spec=params_mask)

params = ((1., 2.), 3.)
params_mask = ((True, False), False)

try:  # scaffolding
    partition(params, params_mask)
    _report({"jit(partition)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
