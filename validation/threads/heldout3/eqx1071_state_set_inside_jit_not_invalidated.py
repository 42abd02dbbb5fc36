# source: https://github.com/patrick-kidger/equinox/issues/1071
# expect: stale-closure at line 44
# runtime: COMPILES 1 CALLS 2
# why: state.set marks the old State as consumed by mutating it (self._state = _sentinel), but inside the jax.jit-ed __call__ that mutation lands on a traced copy and is discarded, so the old state can be reused silently: the second call with the same old state returns the same value instead of raising (eagerly it raises ValueError 'Attempted to use old state').

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


import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array
import jax

class Counter(eqx.Module):
    index: eqx.nn.StateIndex

    def __init__(self):
        init_state = jnp.array(0)
        self.index = eqx.nn.StateIndex(init_state)
   
    @jax.jit
    def __call__(self, x: Array, state: eqx.nn.State) -> tuple[Array, eqx.nn.State]:
        value = state.get(self.index)
        new_x = x + value
        new_state = state.set(self.index, value + 1)
        return new_x, new_state  # scaffolding: cut off in the thread after `new_x, new_`


counter, state = eqx.nn.make_with_state(Counter)()  # scaffolding
x = jnp.array(2.3)  # scaffolding
y1, new_state = counter(x, state)  # scaffolding
y2, _ = counter(x, state)  # scaffolding: reuses the old state, which should raise
_report({"jit(__call__)"}, 2)  # scaffolding
