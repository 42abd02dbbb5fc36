# source: https://github.com/QuantEcon/lecture-python-programming/pull/366
# expect: none
# runtime: COMPILES 1 CALLS 6400
# why: the jitted f is called 6400 times from a nested Python loop (the lecture's "slow for loop version"), but every call gets two scalars of the same dtype, so it compiles once; the slowness is dispatch, not recompilation.
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


# lectures/jax_intro.md as added by PR #366 (9e0844e): the first vectorization cells, in order
import numpy as np
import jax
import jax.numpy as jnp

@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

n = 80
x = jnp.linspace(-2, 2, n)
y = x

z_loops = np.empty((n, n))

for i in range(n):  # (the cell's %%time dropped: scaffolding)
    for j in range(n):
        z_loops[i, j] = f(x[i], y[j])
_report({"jit(f)"}, 6400)  # scaffolding
