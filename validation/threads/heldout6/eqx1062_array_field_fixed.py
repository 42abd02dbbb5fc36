# source: https://github.com/patrick-kidger/equinox/issues/1062
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: with the counter held as a jax array (what the reporters switched to) it is a traced leaf of the module, so _step compiles once for the 4 steps.

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
import equinox as eqx
import jax
import jax.numpy as jnp


class MyModule(eqx.Module):
    x: jax.Array
    y: jax.Array


@eqx.filter_jit
def _step(state):
    return state.y * 0.9 + state.x * 0.01


state = MyModule(x=jnp.array(0), y=jnp.ones(3))
steps = 0
for _ in range(4):
    y = _step(state)
    state = MyModule(x=state.x + 1, y=y)
    steps += 1
_report({"jit(_step)"}, steps)
