# source: https://docs.kidger.site/equinox/api/transformations
# expect: none
# runtime: COMPILES 3 CALLS 6
# why: filter_jit traces arrays and holds non-arrays static, so the docs' three calls (both arrays, array and int, two ints) are three different signatures and compile once each; repeating them reuses the cache.
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
import equinox as eqx
import jax.numpy as jnp


# Basic behaviour
@eqx.filter_jit
def f(x, y):  # both args traced if arrays, static if non-arrays
    return x + y, x - y


for _ in range(2):  # scaffolding: repeat the docs' three calls
    f(jnp.array(1), jnp.array(2))  # both args traced
    f(jnp.array(1), 2)  # first arg traced, second arg static
    f(1, 2)  # both args static
_report({"jit(f)"}, 6)  # scaffolding
