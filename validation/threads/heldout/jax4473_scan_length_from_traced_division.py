# source: https://github.com/jax-ml/jax/issues/4473
# expect: trace-time-error at line 37
# runtime: ERROR ConcretizationTypeError
# why: time and dt are traced arguments, so length=np.divide(time, dt).astype(int) is traced and scan raises ConcretizationTypeError.

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
from jax import jit
from functools import partial  # scaffolding: jax.partial in 2020
from jax.lax import scan
import jax.numpy as np


@partial(jit, static_argnums=(0,))
def integrate_euler(f, initial_state, time, dt):
    propagated_state, _ = scan(
        f=lambda state, _: (euler_integration_step(f, state, dt), None),
        init=initial_state,
        length=np.divide(time, dt).astype(int),
        xs=None,
    )
    return propagated_state


def euler_integration_step(f, state, dt):
    return state + dt*f(state)


# Example: solve dx/dt = 9x/10, for t=1.0, starting with x0 = [1, 2], and using a timestep of 0.01.
try:  # scaffolding
    integrate_euler(
        lambda x: 0.9*x,
        initial_state=np.array([1., 2.]),
        time=1.0,
        dt=1e-2
    )
    _report({"jit(integrate_euler)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
