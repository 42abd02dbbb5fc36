# source: https://jax.readthedocs.io/en/latest/errors.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the page's rewrite with jnp.where selects between x and y inside the compiled program, so func compiles once.
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
from jax import jit
import jax.numpy as jnp


@jit
def func(x, y):
    return jnp.where(x.sum() < y.sum(), x, y)


func(jnp.ones(4), jnp.zeros(4))
_report({"jit(func)"}, 1)  # scaffolding
