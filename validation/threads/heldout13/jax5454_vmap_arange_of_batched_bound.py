# source: https://github.com/jax-ml/jax/issues/5454
# expect: trace-time-error at line 39
# runtime: ERROR ConcretizationTypeError
# why: innerRange builds jnp.arange(i) from the vmapped bound i, so under vmap the array length depends on a batched tracer and tracing raises ConcretizationTypeError.

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
from jax import vmap
import jax.numpy as jnp
import numpy as np
import jax
from jax import grad,jit

np.random.seed(0)  # scaffolding

def testSimpleRangeInVMap( parts ):
    def innerRange( i ):
        inds = jnp.arange(i)
        selected = parts[inds]
        p = jnp.sum( selected, axis= 0)
        return p

    print( "innerRange(3)")
    print( innerRange(3) )

    print("innerRange(4)")
    print( innerRange(4) )

    bounds = jnp.array([3, 4], dtype="int32")
    res = vmap(innerRange)(bounds)

    return res

parts = jnp.array( np.random.randn(40,2) )
try:  # scaffolding
    print( testSimpleRangeInVMap( parts ) )
    _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
