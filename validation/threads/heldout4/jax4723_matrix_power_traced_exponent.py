# source: https://github.com/jax-ml/jax/issues/4723
# expect: trace-time-error at line 33
# runtime: ERROR ValueError
# why: n is a traced argument of jit(minimal_example), but jnp.linalg.matrix_power needs a static integer exponent; on jax 0.10.2 it raises ValueError (non-hashable static argument: a tracer), while the unjitted call works.

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


from jax import jit  # scaffolding: the snippet uses jit without importing it
import jax.numpy as jnp

def minimal_example(F, x, n):
    
    return jnp.linalg.matrix_power(F, n) @ x @ jnp.linalg.matrix_power(F, n).T

sample_F = jnp.eye(2)
sample_x = jnp.array([2, 1])
sample_n = 2

# Works fine without JIT
minimal_example(sample_F, sample_x, sample_n)

jit_fun = jit(minimal_example)
try:  # scaffolding
    jit_fun(sample_F, sample_x, sample_n)
    _report({"jit(minimal_example)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
