# source: https://github.com/google/jaxopt/issues/403
# expect: trace-time-error at line 50
# runtime: ERROR TracerArrayConversionError
# why: solver.run of a ScipyBoundedMinimize is called inside the lax.scan body update_v, where y and v are tracers; the scipy wrapper converts them with onp.asarray and raises TracerArrayConversionError (the reporter's traceback ends in jnp_to_onp).

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
from typing import NamedTuple  # scaffolding
import jax
import jax.numpy as jnp
from jaxopt import ScipyBoundedMinimize


class Model(NamedTuple):  # scaffolding: stand-in for the reporter's model
    grid: jax.Array
    beta: float


def state_action_value_jax(c, data):  # scaffolding: stand-in for the reporter's objective
    y, v, model = data
    return -(jnp.log(c) + model.beta * jnp.interp(y - c, model.grid, v))


solver = ScipyBoundedMinimize(fun=state_action_value_jax, method="l-bfgs-b")

def T_jax(v, model):
    def update_v(carry, y):
        b = jnp.array((1e-5, y))
        result = solver.run(y, bounds=b, data=(y, v, model)).params
        return carry + 1, (result.x, -result.fun, result.success)
    _, v_values = jax.lax.scan(update_v, 0, model.grid)
    return v_values


model = Model(grid=jnp.linspace(0.1, 2.0, 5), beta=0.9)  # scaffolding
try:  # scaffolding
    T_jax(jnp.zeros(5), model)  # scaffolding
    _report({"jit(scan)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
