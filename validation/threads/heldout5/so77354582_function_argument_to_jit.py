# source: https://techqa.club/v/q/appending-to-list-alternative-workflow-for-jax-77354582
# expect: trace-time-error at line 50
# runtime: ERROR TypeError
# why: integrator is jitted with the right-hand-side function f as an ordinary (traced) argument; a Python function is not a valid JAX type, so the first call raises TypeError before the loop the question is about can run.
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


import jax.numpy as jnp
from jax import jit

# Function to integrate.
@jit
def dxdt(t, x):
    return -x**2

# Euler method for simplicity.
@jit
def integrator(f, t, x, dt):
    return x + f(t, x) * dt

t_arr = jnp.linspace(0, 10, 100)
dt = t_arr[1] - t_arr[0]
f = dxdt  # scaffolding: the question passes `f` without defining it; dxdt is the function meant

x_list = []
# initialize x.
x = 0.
try:  # scaffolding
    for t in t_arr[:3]:  # scaffolding: loop cut to 3 steps
        x_list.append(x)
        x = integrator(f, t, x, dt)
    _report({"jit(integrator)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
x_arr = jnp.array(x_list)
