# source: https://github.com/jax-ml/jax/issues/12331
# expect: trace-time-error at line 32
# runtime: ERROR ConcretizationTypeError
# why: the reporter's second case: jnp.expand_dims also needs a static axis, and an axis made with jax.numpy.array inside the jitted function is a tracer, so tracing raises.

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

def fn(inp):
    axis = jax.numpy.array(0, dtype=jax.numpy.int64)
    return jax.numpy.expand_dims(inp, axis)

inp = jax.numpy.array(128, dtype=jax.numpy.float32)

print(fn(inp))
# [128.]

try:  # scaffolding
    jax.jit(fn)(inp)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
# TypeError: iteration over a 0-d array
