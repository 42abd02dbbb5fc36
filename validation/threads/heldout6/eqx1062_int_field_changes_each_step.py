# source: https://github.com/patrick-kidger/equinox/issues/1062
# expect: changing-static at line 48
# runtime: COMPILES 4 CALLS 4
# why: the module's counter x is a Python int, which filter_jit treats as static; it changes on every iteration (MyModule(x=0), MyModule(x=1), ...), so _step misses the cache and recompiles on each call (4 compiles for 4 steps).

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
    x: int
    y: jax.Array


@eqx.filter_jit
def _step(state):
    return state.y * 0.9 + state.x * 0.01


state = MyModule(x=0, y=jnp.ones(3))
steps = 0
for _ in range(4):
    y = _step(state)
    state = MyModule(x=state.x + 1, y=y)
    steps += 1
_report({"jit(_step)"}, steps)
