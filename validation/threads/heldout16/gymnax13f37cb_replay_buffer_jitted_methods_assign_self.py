# source: https://github.com/RobertTLange/gymnax/commit/13f37cbba91109f8e79daf7470ad60f79bef5e75
# expect: stale-closure at line 73
# runtime: ERROR ConcretizationTypeError
# why: push is jitted with self static and assigns the updated buffers and counters to self inside the trace, so self keeps leaked tracers (later pushes hit the cache and store nothing) and sample's jnp.arange(stop=self.total_transitions) raises ConcretizationTypeError.

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


# gymnax/rollouts/replay_buffer.py (before the commit; jax.ops.index_update(x, jax.ops.index[i], v), removed from JAX, written x.at[i].set(v))

class ReplayBuffer(object):
    """A JAX-based replay buffer. JIT-through sampling and storage calls. """
    def __init__(self, state_template, obs_template, action_template,
                 capacity):
        """ Initialize jnp arrays based on shape of obs and capacity. """
        # Get shape of obs, state, action from template arrays
        self.state_shape = list(state_template.shape)
        self.obs_shape = list(obs_template.shape)
        self.action_shape = list(action_template.shape)

        # Initialize buffers for s_t, s_t_1, o_t, o_t_1, a_t, r_t_1, done_t
        self.state_buffer = jnp.zeros([capacity] + self.state_shape)
        self.next_state_buffer = jnp.zeros([capacity] + self.state_shape)
        self.obs_buffer = jnp.zeros([capacity] + self.obs_shape)
        self.next_obs_buffer = jnp.zeros([capacity] + self.obs_shape)
        self.action_buffer = jnp.zeros([capacity] + self.action_shape)
        self.reward_buffer =jnp.zeros(capacity)
        self.done_buffer = jnp.zeros(capacity)

        # Use pointer in buffer to overwrite entries once buffer runs over
        self.capacity = capacity
        self.buffer_pointer = 0
        self.total_transitions = 0

    @partial(jit, static_argnums=(0,))
    def push(self, state, next_state, obs, next_obs, action, reward, done):
        """ Store transition tuple data at step pointer location. """
        self.state_buffer = self.state_buffer.at[self.buffer_pointer, :].set(state)
        self.next_state_buffer = self.next_state_buffer.at[self.buffer_pointer, :].set(next_state)
        self.obs_buffer = self.obs_buffer.at[self.buffer_pointer, :].set(obs)
        self.next_obs_buffer = self.next_obs_buffer.at[self.buffer_pointer, :].set(next_obs)
        self.action_buffer = self.action_buffer.at[self.buffer_pointer, :].set(action)
        self.reward_buffer = self.reward_buffer.at[self.buffer_pointer].set(reward)
        self.done_buffer = self.done_buffer.at[self.buffer_pointer].set(done)

        # Update the buffer pointer, reset once capacity is full - overwrite
        self.buffer_pointer += 1
        self.total_transitions = jnp.minimum(self.total_transitions + 1,
                                             self.capacity)
        self.buffer_pointer = self.buffer_pointer % self.capacity

    @partial(jit, static_argnums=(0, 2,))
    def sample(self, key, batch_size):
        """ Sample a batch from buffer: (o_t, o_t_1, a_t, r_t_1, done_t) """
        valid_idx = jnp.arange(start=0, stop=self.total_transitions, step=1)
        sample_idx = jax.random.choice(key, valid_idx, shape=(batch_size, ),
                                       replace=False)
        obs_batch = jnp.take(self.obs_buffer, sample_idx, axis=0)
        next_obs_batch = jnp.take(self.next_obs_buffer, sample_idx, axis=0)
        action_batch = jnp.take(self.action_buffer, sample_idx, axis=0)
        reward_batch = jnp.take(self.reward_buffer, sample_idx, axis=0)
        done_batch = jnp.take(self.done_buffer, sample_idx, axis=0)
        return obs_batch, next_obs_batch, action_batch, reward_batch, done_batch


# scaffolding: 5 pushes of transitions with 4-d states/obs, then a batch of 2 sampled
key = jax.random.PRNGKey(0)
buffer = ReplayBuffer(jnp.zeros(4), jnp.zeros(4), jnp.zeros(1), capacity=10)
calls = 0
try:  # scaffolding
    for t in range(5):
        x = jnp.full(4, float(t))
        buffer.push(x, x + 1, x, x + 1, jnp.ones(1), 1.0, 0.0)
        calls += 1
    batch = buffer.sample(key, 2)
    calls += 1
    _report({"jit(push)", "jit(sample)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
