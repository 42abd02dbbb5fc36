# source: https://github.com/dylanbforde/jax-training/blob/d6d6313a43dba6e5235e8ceb168f7d9b93ca7e39/basic.py
# expect: trace-time-error at line 45
# runtime: ERROR TracerBoolConversionError
# why: Learner's JAX basics script: a jitted f branches with Python `if x % 2 == 0` on its traced argument; the script notes 'not possible to do' and comments it out, and calling it raises TracerBoolConversionError.

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

# ---- basic.py (JIT section)
@jax.jit
def myfunction(x):
    return jnp.where(x % 2 == 0, x / 2, 3 * x + 1)  # Collatz Conjecture


arr = jnp.arange(10)

_ = myfunction(arr)  # warm up for jit

# not possible to do
@jax.jit
def f(x):
    if x % 2 == 0:
        return 1
    else:
        return 0

try:  # scaffolding: the script keeps this block commented out
    f(10)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
