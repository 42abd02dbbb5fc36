# source: https://github.com/BaiqiangGit/get-started-with-JAX/blob/03de997de63863fe0decd86a66259052b834895d/replicate_day2_tutorial1.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the learner's fix computes the size with np.prod(x.shape), a concrete Python value at trace time, so the jitted reshape compiles once and runs.
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



import jax
import numpy as np
from timeit import Timer

from jax import random
from jax import make_jaxpr # jax expression
from jax import numpy as jnp

from jax import jacfwd
from jax import jacrev
from jax import jit
from jax import grad
from jax import vmap
from jax import pmap
from jax import lax 

# (lines 16-244 of the file cut: the tutorial notes, timing helpers and the three failure demos that precede the fix)
x = jnp.ones((2,3))  # scaffolding: the file sets x = jnp.ones((2,3)) in the cut block just above the fix

# Work around: using numpy instead of jax.numpy
# Why? probably jit is nested compilation
# and internal jit compilables needs constant shape/type
# Task: add some print statements !
print('fix 3rd failure')
@jax.jit
def f(x):
    return x.reshape(np.prod(x.shape))
f(x)
print(f._cache_size())

_report({"jit(f)"}, 1)  # scaffolding
