# source: https://github.com/brentyi/jaxls/blob/40f4a548713ce6689a3db1d25235c615ecfef2bc/scripts/jax_experiments/rotate.py
# expect: changing-static at line 60
# runtime: COMPILES 10 CALLS 10
# why: the 'jit build' variant jits rotate with theta as a static argument and calls it with the loop counter, so every call is a new static value and rotate is retraced and recompiled each iteration.

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
import time

import jax
import jax.numpy as jnp
import contextlib  # scaffolding
import numpy as onp


@contextlib.contextmanager
def stopwatch(label):  # scaffolding: stands in for jaxfg.utils.stopwatch
    start = time.time()
    yield
    print(label, time.time() - start)


iters = 5  # scaffolding: was 500

for jit_label, jit in {
    "jit build: ": lambda x: jax.jit(x, static_argnums=(0,)),
}.items():  # scaffolding: the "jit: " and no-jit entries are in the twin file
    with stopwatch(f"{jit_label}matrix"):

        @jit
        def rotate(theta):
            cos = jnp.cos(theta)
            sin = jnp.sin(theta)
            R = jnp.array([[cos, -sin], [sin, cos]])
            p = jnp.ones(2)
            return R @ R

        for i in range(iters):
            rotate(i).block_until_ready()

    with stopwatch(f"{jit_label}decomposed"):

        @jit
        def rotate(theta):
            cos = jnp.cos(theta)
            sin = jnp.sin(theta)
            p = jnp.ones(2)
            return jnp.array([cos * p[0] - sin * p[1], sin * p[0] + cos * p[1]])

        for i in range(iters):
            rotate(i).block_until_ready()
_report({"jit(rotate)"}, 2 * iters)
