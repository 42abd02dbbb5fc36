# source: https://github.com/jax-ml/jax/pull/16430
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: 'scale = scale or 1.0' converts scale to bool; when an array is passed it is traced under jit, so the idiom raises TracerBoolConversionError (None still works).

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


@jax.jit  # scaffolding
def scaled(x, scale=None):  # scaffolding
    scale = scale or 1.0  # z = nullable_value or default_value
    return x * scale  # scaffolding


print(scaled(jnp.arange(3.0)))  # scaffolding: scale left as None works
try:  # scaffolding
    print(scaled(jnp.arange(3.0), jnp.float32(2.0)))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
