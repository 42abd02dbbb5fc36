# source: https://theneuralbase.com/jax/learn/beginner/tracer-errors-dynamic-control-flow/
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: good_control_flow expresses the branch with lax.cond, so the jitted function traces once and serves both branches: 1 compile for 2 calls.

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
from jax import lax


def good_control_flow(arr):
    return lax.cond(
        arr[0] > 5,
        lambda x: x * 2,
        lambda x: x + 1,
        arr
    )


jitted = jax.jit(good_control_flow)  # scaffolding
jitted(jnp.array([6.0, 1.0, 2.0]))  # scaffolding
jitted(jnp.array([1.0, 1.0, 2.0]))  # scaffolding
_report({"jit(good_control_flow)"}, 2)  # scaffolding
