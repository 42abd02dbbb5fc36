# source: https://github.com/lnabergall/oe-tc-project-alpha/commit/913be6f7840f34beaf5449b6f6ee957b8b8fd5f6
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The fix makes n, pad_value and sites static (static_argnums=[1, 2, 3]); they are the same Python ints on every call, so the lattice builder compiles once and is reused as positions change.

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
# geometry.py (imports and generate_lattice)
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=[1, 2, 3])
def generate_lattice(R, n, pad_value, sites=2):
    """
    Generate the occupation lattice corresponding to R. The lattice is nxnxsites, 
    with 'sites' slots per position of the lattice, to accomodate test positions; 
    occupation is indicated by a particle index in one of the slots. 
    """
    k = R.shape[0]
    L = jnp.full((n, n, sites), pad_value, dtype=int)
    counts = jnp.zeros((n, n), dtype=int)

    def particle_fn(L, counts, i, x, y):
        idx = counts[x, y]
        L = L.at[x, y, idx].set(i)
        counts = counts.at[x, y].add(1)
        return (L, counts)

    def padding_fn(L, counts, *args):
        return L, counts

    def map_point(i, args):
        L, counts = args
        x, y = R[i]
        return jax.lax.cond(x == pad_value, padding_fn, particle_fn, L, counts, i, x, y)

    L, counts = jax.lax.fori_loop(0, k, map_point, (L, counts))
    return L, counts


# system.py: the particle system builds its occupation lattice from the positions R
import numpy as np  # scaffolding
n, pad_value = 16, -1  # scaffolding: self.n, self.pad_value
rng = np.random.default_rng(0)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for step in range(3):  # scaffolding: the lattice is regenerated as particles move
        R = jnp.asarray(rng.integers(0, n, size=(40, 2)))  # scaffolding: particle positions
        L = generate_lattice(R, n, pad_value)
        calls += 1  # scaffolding
    _report({"jit(generate_lattice)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
