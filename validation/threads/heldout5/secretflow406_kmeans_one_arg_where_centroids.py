# source: https://github.com/secretflow/secretflow/issues/406
# expect: trace-time-error at line 35
# runtime: ERROR ConcretizationTypeError
# why: 'method2' replaces the mask by X[jnp.where(labels == j)], the one-argument where, which is jnp.nonzero: its output size depends on the traced labels, so without size= it raises ConcretizationTypeError under jit (the 'weird' nonzero error of the issue).
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

n_clusters = 3  # scaffolding


@jax.jit  # scaffolding: SPU compiles the function through jax's tracing, like jit
def update_centroids(X, labels, centroids):  # scaffolding
    centroids = jnp.array([jnp.mean(X[jnp.where(labels == j)], axis=0) for j in range(n_clusters)])
    return centroids  # scaffolding


X = jax.random.normal(jax.random.PRNGKey(0), (100, 2))  # scaffolding
labels = jnp.arange(100) % n_clusters  # scaffolding
try:  # scaffolding
    update_centroids(X, labels, jnp.zeros((n_clusters, 2)))  # scaffolding
    _report({"jit(update_centroids)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
