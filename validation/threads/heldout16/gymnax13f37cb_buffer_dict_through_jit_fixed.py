# source: https://github.com/RobertTLange/gymnax/commit/13f37cbba91109f8e79daf7470ad60f79bef5e75
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: the commit replaces the class with init_buffer/push_to_buffer/sample_from_buffer that pass the buffer dict through jit and return it, so pushes take effect (pointer 5 after 5 pushes) and push/sample compile once each (2 compiles for 6 calls).

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


# gymnax/rollouts/replay_buffer.py (after the commit; jax.ops.index_update(x, jax.ops.index[i], v), removed from JAX, written x.at[i].set(v))

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


@jax.jit
def push_to_buffer(buffer, state, next_state, obs, next_obs,
                   action, reward, done):
    """ Store transition tuple data at step pointer location. """
    buffer["state"] = buffer["state"].at[buffer["pointer"], :].set(state)
    buffer["next_state"] = buffer["next_state"].at[buffer["pointer"], :].set(next_state)
    buffer["obs"] = buffer["obs"].at[buffer["pointer"], :].set(obs)
    buffer["next_obs"] = buffer["next_obs"].at[buffer["pointer"], :].set(next_obs)
    buffer["action"] = buffer["action"].at[buffer["pointer"], :].set(action)
    buffer["reward"] = buffer["reward"].at[buffer["pointer"]].set(reward)
    buffer["done"] = buffer["done"].at[buffer["pointer"]].set(done)

    # Update the buffer pointer, reset once capacity is full - overwrite
    buffer["pointer"] += 1
    buffer["pointer"] = buffer["pointer"] % buffer["capacity"]
    buffer["total_transitions"] = jnp.minimum(buffer["total_transitions"]
                                              + 1, buffer["capacity"])
    return buffer


@partial(jit, static_argnums=(2,))
def sample_from_buffer(key, buffer, batch_size):
    """ Sample a batch from buffer: (idx, o_t, o_t_1, a_t, r_t_1, done_t) """
    sample_idx = jax.random.randint(key, shape=(batch_size, ),
                                    minval=0,
                                    maxval=buffer["total_transitions"])
    # TODO: Figure how to do sampling without replacement without
    # random.choice + jnp.arange since arange varies in shape = no jit
    #valid_idx = jnp.arange(start=0, stop=buffer["total_transitions"],
    #                       step=1)
    #sample_idx = jax.random.choice(key, valid_idx, shape=(batch_size, ),
    #                               replace=False)
    batch_out = {}
    batch_out["idx"] = sample_idx
    batch_out["obs"] = jnp.take(buffer["obs"], sample_idx, axis=0)
    batch_out["next_obs"] = jnp.take(buffer["next_obs"], sample_idx, axis=0)
    batch_out["action"] = jnp.take(buffer["action"], sample_idx, axis=0)
    batch_out["reward"] = jnp.take(buffer["reward"], sample_idx, axis=0)
    batch_out["done"] = jnp.take(buffer["done"], sample_idx, axis=0)
    return batch_out


# scaffolding: 5 pushes of transitions with 4-d states/obs, then a batch of 2 sampled
key = jax.random.PRNGKey(0)
buffer = init_buffer(jnp.zeros(4), jnp.zeros(4), jnp.zeros(1), capacity=10)
calls = 0
try:  # scaffolding
    for t in range(5):
        x = jnp.full(4, float(t))
        buffer = push_to_buffer(buffer, x, x + 1, x, x + 1, jnp.ones(1), 1.0, 0.0)
        calls += 1
    batch = sample_from_buffer(key, buffer, 2)
    calls += 1
    print("pointer after 5 pushes:", int(buffer["pointer"]))
    _report({"jit(push_to_buffer)", "jit(sample_from_buffer)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
