# source: https://github.com/QuantEcon/lecture-jax/issues/95
# expect: trace-time-error at line 38
# runtime: ERROR TracerIntegerConversionError
# why: with static_argnums dropped (the change agreed in the thread), num_iterations is a traced argument of the jitted power_iteration_sr, so a reader passing their own iteration count hits range(num_iterations) on a tracer and gets TracerIntegerConversionError, as HumphreyYang warns.

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


import jax
import jax.numpy as jnp

def power_iteration_sr(A, num_iterations=15, seed=1234):
    """
    Power iteration method to find the spectral radius
    """
    key = jax.random.PRNGKey(seed)
    b_k = jax.random.normal(key, (A.shape[1],))
    sr = 0
    for _ in range(num_iterations):
        # calculate the matrix-by-vector product Ab
        b_k1 = jnp.dot(A, b_k)

        # calculate the norm
        b_k1_norm = jnp.linalg.norm(b_k1)

        sr = jnp.sum(b_k1*b_k)/jnp.sum(b_k*b_k)

        # re normalize the vector
        b_k = b_k1 / b_k1_norm

    return sr

power_iteration_sr = jax.jit(power_iteration_sr)

Q = jnp.array([[0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])  # scaffolding
try:  # scaffolding
    power_iteration_sr(Q, num_iterations=20)
    _report({"jit(power_iteration_sr)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
