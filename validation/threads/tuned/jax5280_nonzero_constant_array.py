# source: https://github.com/jax-ml/jax/issues/5280
# expect: trace-time-error at line 35
# runtime: ERROR ConcretizationTypeError
# why: inside jit even a constant jnp.array is staged out, so jnp.nonzero (output shape depends on values, no size=) cannot get a concrete value and raises ConcretizationTypeError (jakevdp: 'Yes, this is intended').

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
from jax import jit
import jax.numpy as np  # scaffolding: the thread's np is jax.numpy

@jit
def example():
    a = np.array([0, 1, 2])
    return np.nonzero(a)

try:  # scaffolding
    example()
    _report({"jit(example)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
