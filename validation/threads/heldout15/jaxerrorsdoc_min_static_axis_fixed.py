# source: https://jax.readthedocs.io/en/latest/errors.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the page's fix marks axis as static with partial(jit, static_argnums=1), so min gets a Python int and func compiles once.
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
from functools import partial
from jax import jit
import jax.numpy as jnp


@partial(jit, static_argnums=1)
def func(x, axis):
    return x.min(axis)


func(jnp.arange(4), 0)
_report({"jit(func)"}, 1)  # scaffolding
