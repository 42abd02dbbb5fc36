# source: https://github.com/jax-ml/jax/issues/1922
# expect: trace-time-error at line 34
# runtime: ERROR TracerIntegerConversionError
# why: axis=(0,) is passed to the jitted test as an argument, so its 0 is traced and jnp.mean cannot use it as an axis (TracerIntegerConversionError); without jit the call works.

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


from jax import jit
import jax.numpy as jnp
import numpy as np

@jit
def test(inputs,axis=(0,)):
    mean=jnp.mean(inputs,axis=axis,keepdims=True)

input_shape=(8,16)
inputs=np.random.uniform(size=input_shape)
try:  # scaffolding
    test(inputs,axis=(0,))
    _report({"jit(test)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
