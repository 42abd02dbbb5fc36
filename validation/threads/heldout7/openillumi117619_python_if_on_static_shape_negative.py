# source: https://openillumi.com/?p=117619
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: A Python `if` on x.shape[0] inside a jitted function is decided at trace time per input shape; two shapes give two correct cached versions (1 and -1), which is the behaviour the question asks about, not a bug.

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
def test(x):
    if x.shape[0] > 4:
        return 1
    else:
        return -1


x8 = jnp.ones(8)  # shape = (8,)
x3 = jnp.ones(3)  # shape = (3,)

print(test(x8), test(x8), test(x3))  # 1 1 -1: one trace per shape
_report({"jit(test)"}, 3)
