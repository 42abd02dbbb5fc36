# source: https://github.com/ericmjl/dl-workshop/blob/bc0c9383d00ad60c1802fb01e1cf08d36a5ea5ba/notebooks/02-jax-idioms/05-jit.ipynb
# expect: jit-in-loop-or-body at line 72
# runtime: COMPILES 4 CALLS 4
# why: gaussian_random_walk_jit wraps a fresh functools.partial in jit on every call, so each call (the notebook times it with %timeit) recompiles the vmapped random walk; the notebook then wonders why JIT 'doesn't appear to do much'.

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
# --- cell 3 ---
import jax.numpy as np

# --- cell 15 ---
from time import time

from jax import lax, random

N_REALIZATIONS = 1_000
N_TIMESTEPS = 1_000  # scaffolding: 10_000 in the notebook (cell 12)

key = random.PRNGKey(44)
keys = random.split(key, N_TIMESTEPS)


def new_draw(prev_val, key):
    """lax.scannable function for drawing a new draw from the GRW."""
    new = prev_val + random.normal(key)
    return new, prev_val


def grw_draw(key, num_steps):
    """One GRW draw over a bunch of steps."""
    keys = random.split(key, num_steps)
    final, draws = lax.scan(new_draw, 0.0, keys)
    return final, draws

# --- cell 16 ---
from functools import partial

from jax import vmap

# --- cell 17 ---
from jax import random

key = random.PRNGKey(42)

# --- cell 21 ---
from jax import jit


def gaussian_random_walk_jit(num_realizations, num_timesteps):
    keys = random.split(key, num_realizations)
    grw_k_steps = jit(partial(grw_draw, num_steps=num_timesteps))
    final, trajectories = vmap(grw_k_steps)(keys)
    return final, trajectories

# --- cell 22 ---
start = time()
final_jit, trajectories_jit = gaussian_random_walk_jit(
    N_REALIZATIONS, N_TIMESTEPS
)
trajectories_jit.block_until_ready()
end = time()
print(f"{end - start:.2f} seconds")

# --- cell 23 ---
for _ in range(3):  # scaffolding: stands in for %timeit
    gaussian_random_walk_jit(N_REALIZATIONS, N_TIMESTEPS)[1].block_until_ready()
_report({"jit(grw_draw)"}, 4)  # scaffolding
