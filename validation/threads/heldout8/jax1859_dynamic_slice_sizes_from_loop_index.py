# source: https://github.com/jax-ml/jax/issues/1859
# expect: trace-time-error at line 37
# runtime: ERROR TypeError
# why: The fori_loop index w is traced, so the dynamic_slice sizes [N-w, w] are not static at trace time.
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

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

N = 6  # scaffolding: sentence length of the CKY chart
A, B = 0, 1  # scaffolding: the two chart halves
beta = jnp.zeros((2, N, N))  # scaffolding

def update(w, beta):
       Y = jax.lax.dynamic_slice(beta[A], [0, 0], [N-w, w])
       Z = jax.lax.dynamic_slice(beta[B], [w, N - w], [N-w, w])
       # ...  (elided in the thread)
       return beta  # scaffolding: the thread returns (beta[A], beta[B])

try:  # scaffolding
    jax.lax.fori_loop(1, N, update, beta)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
