# source: https://github.com/jax-ml/jax/pull/12334
# expect: trace-time-error at line 32
# runtime: ERROR ConcretizationTypeError
# why: the axis of jnp.squeeze must be static; a jnp.array(1) built inside jit is traced, so squeeze raises (ConcretizationTypeError 'expected a static index').

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

def f(x):
  return jax.numpy.squeeze(x, jax.numpy.array(1))

try:  # scaffolding
    jax.jit(f)(jax.numpy.arange(5))
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
