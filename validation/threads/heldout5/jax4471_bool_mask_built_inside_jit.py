# source: https://github.com/jax-ml/jax/issues/4471
# expect: trace-time-error at line 34
# runtime: ERROR NonConcreteBooleanIndexError
# why: the mask depends only on the static y, but it is built with jnp inside jit, so since omnistaging it is a traced boolean array and x[mask] raises NonConcreteBooleanIndexError.
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
import jax
import jax.numpy as jnp


def create_mask_inside_jitted_function(x, y):
    mask = jnp.arange(x.shape[0]) < y  # scaffolding: the thread shows only the function's last line
    return x[mask].sum()


wont_work = jax.jit(create_mask_inside_jitted_function, static_argnums=1)

x = jnp.arange(10.0)  # scaffolding
y = 4  # scaffolding
try:  # scaffolding
    wont_work(x, y)
    _report({"jit(create_mask_inside_jitted_function)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
