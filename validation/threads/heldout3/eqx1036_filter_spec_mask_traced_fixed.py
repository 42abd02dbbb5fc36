# source: https://github.com/patrick-kidger/equinox/issues/1036
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the reporter's working version: params_mask marked static with static_argnames, so the mask stays Python bools and partition compiles once.

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


from functools import partial  # scaffolding
import jax
import jax.numpy as jnp
import equinox as eqx

@partial(jax.jit, static_argnames=["params_mask"])
def partition(params, params_mask):
    return eqx.partition(params, filter_spec=params_mask)

params = ((1., 2.), 3.)
params_mask = ((True, False), False)

partition(params, params_mask=params_mask)  # scaffolding
_report({"jit(partition)"}, 1)  # scaffolding
