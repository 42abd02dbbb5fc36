# source: https://github.com/scipy/scipy/pull/22342
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the PR, hierarchy.linkage skips its value checks for lazy arrays and runs the Cython kernel through lazy_apply (a pure_callback) with a static output shape, so a jitted linkage compiles once for three same-shape point sets.
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


os.environ.setdefault("SCIPY_ARRAY_API", "1")  # scaffolding: scipy's array-API (JAX) dispatch
import jax  # scaffolding
jax.config.update("jax_enable_x64", True)  # scaffolding: linkage's lazy_apply output is float64
import jax.numpy as jnp  # scaffolding
from scipy.cluster import hierarchy  # scaffolding


@jax.jit  # scaffolding: the PR's tests run linkage under jax.jit
def cluster(X):  # scaffolding
    return hierarchy.linkage(X, method="single")  # scaffolding


X = jnp.asarray([[0., 0.], [1., 0.], [5., 5.], [6., 5.], [2., 8.]])  # scaffolding
for k in range(3):  # scaffolding
    cluster(X * (k + 1))  # scaffolding
_report({"jit(cluster)"}, 3)  # scaffolding
