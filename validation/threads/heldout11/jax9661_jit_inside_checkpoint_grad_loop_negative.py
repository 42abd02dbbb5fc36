# source: https://github.com/jax-ml/jax/issues/9661
# expect: none
# runtime: COMPILES 3 CALLS 5
# why: on jax 0.10.2 the inner jitted f under jax.checkpoint is compiled for its three uses (primal, linearized and rematerialized) during the first value_and_grad call only; later iterations with same-shaped inputs hit the caches, so the reported compile-every-iteration no longer happens.

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
def f(a):
    return jnp.sum(a)

@jax.checkpoint
def g(a):
    return f(a)

arr = jnp.array([[1,2,3,4,5],[6,7,8,9,10]], dtype=float)

g_v_and_grad = jax.value_and_grad(g)

for i in range(5):  # scaffolding: range(3) in the issue; two more iterations show no further compiles
    working_arr = arr + i
    print(g_v_and_grad(working_arr))
_report({"jit(f)"}, 5)  # scaffolding
