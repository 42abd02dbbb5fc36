# source: https://apxml.com/courses/getting-started-with-jax/chapter-6-managing-state-in-jax/state-management-transformations
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the jitted stateful_counter is called first with a dict holding a Python int and then with the dict it returned (a jax array); both trace to the same weak int32 signature, so it compiles once for the 2 calls.
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
def stateful_counter(count_state, increment):
    """Increments a counter state."""
    new_count = count_state['count'] + increment
    return {'count': new_count} # Return the new state
# Initial state
initial_state = {'count': 0}
# Apply the function
state1 = stateful_counter(initial_state, jnp.array(1))
state2 = stateful_counter(state1, jnp.array(5))
print(f"Initial state: {initial_state}")
print(f"State after first increment: {state1}")
print(f"State after second increment: {state2}")
# JIT-compile the function
jit_counter = jax.jit(stateful_counter)
# Run the compiled version
jitted_state1 = jit_counter(initial_state, jnp.array(1))
jitted_state2 = jit_counter(jitted_state1, jnp.array(5)) # Re-uses compiled code if shapes/types match
print(f"\nJITted state after first increment: {jitted_state1}")
print(f"JITted state after second increment: {jitted_state2}")
# Verify the structure and values are the same
assert jax.tree_util.tree_all(jax.tree.map(lambda x, y: jnp.all(x == y), state2, jitted_state2))  # scaffolding (page: jax.tree_map)
_report({"jit(stateful_counter)"}, 2)  # scaffolding
