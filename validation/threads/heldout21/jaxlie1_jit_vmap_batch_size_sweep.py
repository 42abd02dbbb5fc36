# source: https://github.com/brentyi/jaxlie/issues/1
# expect: none
# runtime: COMPILES 8 CALLS 77
# why: brentyi's benchmark wraps vmap(bar) in one jit and warms it up before timing each batch size, so each distinct input shape compiles exactly once (8 compiles: bar on (4,), m on (2,4) and six batch sizes) and the timed calls hit the cache.
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


import jax.numpy as _jnp  # scaffolding


class SO3:  # scaffolding: jaxlie.SO3 cut to the constructor and as_matrix (jaxlie not installed)
    def __init__(self, wxyz):
        self.wxyz = wxyz

    def as_matrix(self):
        w, x, y, z = self.wxyz[..., 0], self.wxyz[..., 1], self.wxyz[..., 2], self.wxyz[..., 3]
        return _jnp.stack([
            _jnp.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
            _jnp.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
            _jnp.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
        ], -2)


import jax
from jax import vmap, make_jaxpr
import jax.numpy as jnp
import jax.random

key = jax.random.PRNGKey(0)

@jax.jit
def bar(arr: jnp.array):
    q = SO3(arr)
    return q.as_matrix()

m = jax.jit(vmap(bar))  # New: JIT around the vmapped function
I = jnp.identity(4)[:2]
print(m(I))

import timeit
I = jnp.identity(4)[0]
print(timeit.timeit(lambda: bar(I), number=10))  # scaffolding: number cut from 1000

for n in range(6):
    I = jax.random.normal(key, (10 ** n, 4))
    m(I)  # New: don't time the first call, whose runtime will be dominated by tracing
    print(n, timeit.timeit(lambda: m(I), number=10))  # scaffolding: number cut from 1000
print(_COMPILED, file=__import__("sys").stderr)  # scaffolding
_report({"jit(bar)"}, 1 + 10 + 6 * 11)  # scaffolding
