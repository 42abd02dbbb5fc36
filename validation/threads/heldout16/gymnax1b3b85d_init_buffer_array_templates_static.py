# source: https://github.com/RobertTLange/gymnax/commit/1b3b85d55e619594467a12c864bef235228a21aa
# expect: unhashable-static at line 35
# runtime: ERROR ValueError
# why: init_buffer marks the three template arrays as static together with capacity, and jax arrays are not hashable, so the call raises ValueError (non-hashable static argument).

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
from jax import jit
from functools import partial


# gymnax/rollouts/replay_buffer.py (before the commit; push/sample cut)
@partial(jit, static_argnums=(0, 1, 2, 3))
def init_buffer(state_template, obs_template, action_template, capacity):
    """ Initialize jnp arrays based on shape of obs and capacity. """
    # Get shape of obs, state, action from template arrays
    state_shape = list(state_template.shape)
    obs_shape = list(obs_template.shape)
    action_shape = list(action_template.shape)
    buffer = {}

    # Initialize buffers for s_t, s_t_1, o_t, o_t_1, a_t, r_t_1, done_t
    buffer["state"] = jnp.zeros([capacity] + state_shape)
    buffer["next_state"] = jnp.zeros([capacity] + state_shape)
    buffer["obs"] = jnp.zeros([capacity] + obs_shape)
    buffer["next_obs"] = jnp.zeros([capacity] + obs_shape)
    buffer["action"] = jnp.zeros([capacity] + action_shape)
    buffer["reward"] =jnp.zeros(capacity)
    buffer["done"] = jnp.zeros(capacity)

    # Use pointer in buffer to overwrite entries once buffer runs over
    buffer["capacity"] = capacity
    buffer["pointer"] = 0
    buffer["total_transitions"] = 0
    return buffer


# scaffolding: the collector builds its buffer from templates of a Catch-like env (state, obs, action)
calls = 0
try:  # scaffolding
    for capacity in (100, 100):
        buffer = init_buffer(jnp.zeros((10, 5)), jnp.zeros((50,)), jnp.zeros(()), capacity)
        calls += 1
    _report({"jit(init_buffer)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
