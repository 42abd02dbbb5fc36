# source: https://github.com/QuantEcon/lecture-jax/pull/92
# expect: none
# runtime: COMPILES 2 CALLS 1001
# why: the jitted f is called 1000 times from f_loops' nested Python loop with scalar arguments and then through two nested jax.vmap wrappers; the loop reuses one compile and the vmapped call compiles once more for the batched shapes, as it must.
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


# lectures/jax_intro.md at 0f83f5a (PR #92, 'Intro: Add jax.vmap section'): the vmap section's cells, in order
import numpy as np
import jax
import jax.numpy as jnp

@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

def f_loops(X, Y):
    res = np.empty((X.shape[0], Y.shape[0]))
    for i in range(X.shape[0]):
        for j in range(Y.shape[0]):
            res[i, j] = f(X[i], Y[j])
    return res

f_vec_y = jax.vmap(f, in_axes=(None, 0))
f_vec_xy = jax.vmap(f_vec_y, in_axes=(0, None))

xsize, ysize = 20, 50
X, Y = jnp.linspace(-2, 2, xsize), jnp.linspace(2, 5, ysize)

f_result_loops = f_loops(X, Y)
f_result_vmap = f_vec_xy(X, Y)

print(np.allclose(f_result_loops, f_result_vmap))  # (cell output printed: scaffolding)
_report({"jit(f)"}, 1001)  # scaffolding: 1000 loop calls + 1 vmapped call
