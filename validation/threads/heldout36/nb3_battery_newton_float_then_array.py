# source: https://github.com/raghuramshankar/data-driven-modelling-of-li-ion-batteries/blob/8e89aa0090d4233736e267f319eaf1fbab1575df/newtonSolver.py
# expect: none
# runtime: COMPILES 1 CALLS 1552
# why: The Newton loop calls the jitted loss first with a Python float (jnp.pi/5) and then with the weakly typed jax scalar x0 + t*delX; both trace as a weak float32 scalar, so loss compiles once over about 1.5k calls.

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
import jax as jax
from jax import jit
import jax.numpy as jnp
import time
# import matplotlib.pyplot as plt
# import pandas as pd

jax.config.update('jax_platform_name', 'cpu')

@jit
def func(x0):
    # return jnp.sin(x) + jnp.cos(y)
    return jnp.cos(x0)

@jit
def loss(x0, jac = 1, hes = 1):
    jac = jax.grad(func)(x0)
    hes = jax.grad(jax.grad(func))(x0)
    delX = -jac/hes
    return jac, hes, delX

if __name__ == '__main__':
    start = time.time()
    x0 = jnp.pi/5
    # y0 = 0
    jac = 1
    # hes = 1
    t = 0.01
    _calls = 0  # scaffolding
    while abs(jac) >= 1e-7:
        jac, hes, delX = loss(x0)
        _calls += 1  # scaffolding
        x0 = x0 + t * delX
        # print('jac = ', jac)
        # print('x0 in deg = ', x0 * 180/jnp.pi)

    # print(func(jnp.pi/2, jnp.pi/2))
    # print(jax.grad(func)(jnp.pi/2, jnp.pi/2))

    print('Time of execution:', time.time() - start)
    _report({"jit(loss)"}, _calls)  # scaffolding
