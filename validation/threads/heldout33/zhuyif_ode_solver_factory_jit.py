# source: https://github.com/zhuyifengzju/jax-examples/blob/54ecc8f4a2e6c94dc3e063fe48f5cc15937734e0/01_ode_example.py
# expect: none
# runtime: COMPILES 2 CALLS 25
# why: create_ode_solver defines a jitted solve_ode inside a factory, but main() calls the factory once per ODE and reuses the returned function across its loops, so 25 solves compile twice (once per system), not per call.

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
# 01_ode_example.py; the two unused imports of jax.experimental.stax/optimizers (removed in jax 0.10.2) are commented out
import sys, types  # scaffolding: matplotlib is not installed here; plotting becomes a no-op
_mpl = types.ModuleType('matplotlib'); _mpl.pyplot = types.SimpleNamespace(plot=lambda *a, **k: None, show=lambda *a, **k: None)  # scaffolding
sys.modules['matplotlib'], sys.modules['matplotlib.pyplot'] = _mpl, _mpl.pyplot  # scaffolding
import jax
import jax.numpy as jnp

import numpy as np
from jax.experimental.ode import odeint
from functools import partial
import matplotlib.pyplot as plt

# from jax.experimental import stax  # scaffolding: removed in jax 0.10.2, unused
# from jax.experimental import optimizers  # scaffolding: removed in jax 0.10.2, unused

def first_order_system(state, t=0):
    x = state
    xdot = - x
    return jnp.stack([xdot])

def van_der_pol(state, t=0, mu=1.0):
    """

    Formula:
       \frac{d^{2}x}{dt^{2}} - mu(1 - x^2)\frac{dx}{dt} + x = 0

    """
    
    x, xdot = state
    xddot = mu * (1 - x ** 2) * xdot - x
    return jnp.stack([xdot, xddot])


def create_ode_solver(f, **kwargs):
    @partial(jax.jit, backend="cpu")
    def solve_ode(init_condition, times):
        return odeint(f, init_condition, t=times, rtol=1e-10, atol=1e-10, **kwargs)
    return solve_ode

def main():

    N = 10
    # Canonical system
    xs = None
    solve_ode = create_ode_solver(first_order_system)
    for i in range(-10, 10):
        x0 = np.array([i], dtype=np.float32)
        t = np.linspace(0, N, 1000)
        x = jax.device_get(solve_ode(x0, t))
        if xs is None:
            xs = x
        else:
            xs = np.hstack((xs, x))
    # simple ode
    plt.plot(np.array(xs))
    plt.show()

    # Van der Pol oscillator
    solve_ode = create_ode_solver(van_der_pol)

    for i in [0.5]:
        for j in np.linspace(-2, 2, 5):
            x0 = np.array([i, j], dtype=np.float32)
            t = np.linspace(0, N, N*100)
            x = jax.device_get(solve_ode(x0, t))
            print(x.shape)
            x1, x2 = x[:, 0], x[:, 1]
            plt.plot(x1, x2)
    plt.show()
    


main()  # scaffolding
_report({"jit(solve_ode)"}, 25)
