# source: https://github.com/k-karna/learning_jax
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: A learner's jitted functions with Python loops over range(3) and range(x.shape[0]): both bounds are concrete at trace time, so the loops unroll and each function compiles once per shape.

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
from jax import grad, jit
import jax.numpy as jnp


@jit
def f(x):
    for i in range(3):
        x = 2*x
    return x
print(f(3))


@jit
def g(x):
    y = 0.
    for i in range(x.shape[0]):
        y = y + x[i]
    return y
print(g(jnp.array([1., 2., 3.])))
print(g(jnp.array([4., 5., 6.])))  # scaffolding: a second call with the same shape
_report({"jit(f)", "jit(g)"}, 3)
