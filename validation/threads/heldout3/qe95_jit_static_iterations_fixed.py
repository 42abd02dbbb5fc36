# source: https://github.com/QuantEcon/lecture-jax/issues/95
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the lecture's version quoted in the thread, static_argnums=(1,2): num_iterations and seed are static, so a call with another iteration count traces a concrete loop and works; one compile per distinct count (two calls, two counts, two compiles).

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

power_iteration_sr = jax.jit(power_iteration_sr, static_argnums=(1,2))

Q = jnp.array([[0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])  # scaffolding
power_iteration_sr(Q)  # scaffolding
power_iteration_sr(Q, num_iterations=20)  # scaffolding
_report({"jit(power_iteration_sr)"}, 2)  # scaffolding
