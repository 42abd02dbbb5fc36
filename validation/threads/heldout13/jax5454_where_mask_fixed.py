# source: https://github.com/jax-ml/jax/issues/5454
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jakevdp's rewrite from the thread: a fixed-length arange masked with jnp.where(arange < i) keeps every shape static, so the vmapped (and here jitted) function traces once.

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
        selected = jnp.where((jnp.arange(parts.shape[0]) < i)[:, None], parts, 0)
        p = jnp.sum( selected, axis= 0)
        return p

    bounds = jnp.array([3, 4], dtype="int32")
    batched = jit(vmap(innerRange))  # scaffolding: jit added to count compiles
    res = batched(bounds)
    res = batched(bounds + 1)  # scaffolding: a second call with new bounds
    return res

parts = jnp.array( np.random.randn(40,2) )
print( testSimpleRangeInVMap( parts ) )
_report({"jit(innerRange)"}, 2)  # scaffolding
