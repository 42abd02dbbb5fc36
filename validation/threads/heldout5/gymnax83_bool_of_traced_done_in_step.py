# source: https://github.com/RobertTLange/gymnax/issues/83
# expect: trace-time-error at line 37
# runtime: ERROR TracerBoolConversionError
# why: the Asterix step_entities calls bool(done > 0) while the environment's step is traced for jit, so the traced comparison cannot become a Python bool and TracerBoolConversionError is raised.
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
import jax.numpy as jnp


def step_entities(state):  # scaffolding: gymnax/environments/minatar/asterix.py, trimmed to the failing line
    done = state["entities"].sum() < 0  # scaffolding
    reward = jnp.float32(0.0)  # scaffolding
    return (  # scaffolding
        state,  # scaffolding
        reward,  # scaffolding
        bool(done > 0),
    )  # scaffolding


@jax.jit  # scaffolding: environment.py wraps step for jit, per the traceback
def step(key, state, action):  # scaffolding
    state, reward, done = step_entities(state)
    return state, reward, done  # scaffolding


try:  # scaffolding
    step(jax.random.PRNGKey(0), {"entities": jnp.zeros((8, 4))}, 0)  # scaffolding
    _report({"jit(step)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
