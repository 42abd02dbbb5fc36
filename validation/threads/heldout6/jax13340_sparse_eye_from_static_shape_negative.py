# source: https://github.com/jax-ml/jax/issues/13340
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: n comes from A.shape, which is static under jit; the sparse.eye bug reported in 2022 (a numpy call on a tracer) is fixed, so jit(f) compiles once for 2 calls.

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
from jax import jit, numpy as jnp
from jax.experimental.sparse import eye


def f(A):
    n = A.shape[0]
    return eye(n)


A = jnp.ones([3, 3])
f(A)
# BCOO(float32[3, 3], nse=3)
jf = jit(f)  # scaffolding
print(jf(A))
# TracerArrayConversionError ...  (in 2022)
print(jf(A + 1))  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
