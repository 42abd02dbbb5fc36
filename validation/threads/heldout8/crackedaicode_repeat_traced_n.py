# source: https://crackedaicode.com/problems/jax-static-argnames-in-jit
# expect: trace-time-error at line 34
# runtime: ERROR TypeError
# why: n is a traced argument of the plain jax.jit(repeat_v1), so jnp.zeros((n * x.shape[0],)) gets a traced shape and tracing fails before the range(n) loop is reached.

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

# BREAKS — n is a Tracer under plain jit; output shape unknown at trace time
def repeat_v1(x, n):
    out = jnp.zeros((n * x.shape[0],))   # n is a tracer; shape error
    for i in range(n):                    # range(tracer) also errors
        out = out.at[i * x.shape[0]:(i + 1) * x.shape[0]].set(x)
    return out

try:  # scaffolding
    jax.jit(repeat_v1)(jnp.array([1.0, 2.0]), 3)
    _report({"jit(repeat_v1)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
