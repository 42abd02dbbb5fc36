# source: https://github.com/secretflow/secretflow/issues/406
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: following the maintainer's answer (use where as a select, jnp.where(x > 0, x, 0), not as an index), the cluster sums are taken with the three-argument where and divided by the cluster sizes, so shapes stay fixed and the jitted update compiles and runs.
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
    for j in range(n_clusters):
        in_j = (labels == j)[:, None]
        centroids = centroids.at[j].set(jnp.where(in_j, X, 0).sum(axis=0) / in_j.sum())
    return centroids  # scaffolding


X = jax.random.normal(jax.random.PRNGKey(0), (100, 2))  # scaffolding
labels = jnp.arange(100) % n_clusters  # scaffolding
update_centroids(X, labels, jnp.zeros((n_clusters, 2)))  # scaffolding
_report({"jit(update_centroids)"}, 1)  # scaffolding
