# source: https://github.com/IanQS/numpy_to_jax/blob/0301de5f7595223117312a36d88d79d3bc135502/solutions/extras_when_not_to_jit.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The notebook's jit-compatible version keeps the shape fixed with jnp.where(~jnp.isnan(x), x, replace_with), which traces and compiles once.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

to_filter = jnp.asarray([1, 2, 3, jnp.nan, 10, 20])

def is_nan_jit_compatible(to_filter_jnp, replace_with):
    ########################################
    # Your code here
    ########################################
    nan_mask = ~jnp.isnan(to_filter_jnp)
    return jnp.where(nan_mask, to_filter_jnp,replace_with)

jitted_func = jax.jit(is_nan_jit_compatible)
print(jitted_func(to_filter, 0))
print(jitted_func(to_filter, 1))  # scaffolding
_report({"jit(is_nan_jit_compatible)"}, 2)  # scaffolding
