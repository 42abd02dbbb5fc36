# source: https://github.com/jax-ml/jax/issues/38460
# expect: stale-closure at line 36
# runtime: ERROR UnexpectedTracerError
# why: brk reads its operand from the module-level list foo instead of an argument; the eval_shape trace caches brk with the eval_shape tracer closed over, and the later concrete call hits that cache entry and raises UnexpectedTracerError.

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

foo = []

@jax.jit
def brk(token):
    [x] = foo
    return jnp.concatenate([token, x])

def fn(x):
    foo.append(x)
    out = brk(x)
    foo.clear()
    return out

jax.eval_shape(fn, jnp.array([1.0]))
try:  # scaffolding
    fn(jnp.array([1.0]))
    _report({"jit(brk)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
