# source: https://github.com/jax-ml/jax/issues/38603
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: jnp.compress without size= has a data-dependent output shape; under jit the condition is traced and the call raises (TracerBoolConversionError on 0.10.2) while eager works.

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

t = jnp.ones((4, 4), dtype=jnp.float32)

def f(x):
    return jnp.compress(x.ravel() > 0, x.ravel())

print(f(t).shape)    # eager: (16,)
try:  # scaffolding
    jax.jit(f)(t)        # crashes
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
