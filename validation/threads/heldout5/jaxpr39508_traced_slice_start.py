# source: https://github.com/jax-ml/jax/pull/39508
# expect: trace-time-error at line 34
# runtime: ERROR IndexError
# why: i is traced under jit, so the NumPy-style slice x[i:i+2] has no static start/stop and raises IndexError.
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


@jax.jit
def window(x, i):  # scaffolding: a jitted function around the PR's expression
    return x[i:i+2]


try:  # scaffolding
    window(jnp.arange(5.0), 1)
    _report({"jit(window)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
