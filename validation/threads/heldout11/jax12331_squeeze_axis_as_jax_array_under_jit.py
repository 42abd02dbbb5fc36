# source: https://github.com/jax-ml/jax/issues/12331
# expect: trace-time-error at line 32
# runtime: ERROR ConcretizationTypeError
# why: the axis is built as a jax array inside the function, so under jit it is a tracer and jnp.squeeze, which needs a static axis, raises while tracing (the eager call works).

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
    axis = jax.numpy.array(1, dtype=jax.numpy.int32)
    return jax.numpy.squeeze(inp, axis)

mykey = jax.random.PRNGKey(0)
inp = jax.random.uniform(mykey, [3, 1], jax.numpy.float32, minval=0, maxval=1)

print(fn(inp))
# [0.9653214  0.31468165 0.63302994]

try:  # scaffolding
    jax.jit(fn)(inp)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
# TypeError: iteration over a 0-d array
