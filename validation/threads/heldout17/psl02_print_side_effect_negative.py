# source: https://predictivesciencelab.github.io/advanced-scientific-machine-learning/functional_programming/02_jit.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: bad_f's print runs only while tracing; the second call bad_f(2) reuses the compiled program (1 compile for 2 calls) and returns the same value, so the lecture's 'side effect' is a missing print, not a wrong result or a recompile.
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

@jax.jit
def bad_f(x):
    print("I have side effects!")
    return jnp.sin(x) + jnp.cos(x) + x

bad_f(2)
bad_f(2)
_report({"jit(bad_f)"}, 2)  # scaffolding
