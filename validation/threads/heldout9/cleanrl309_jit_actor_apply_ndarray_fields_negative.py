# source: https://github.com/vwxyzjn/cleanrl/issues/309
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the DDPG script jits the bound method actor.apply of an Actor whose action_scale/action_bias fields are numpy arrays; the thread's Python 3.7 stack hashed the module while calling the jitted apply and failed with "unhashable type: 'numpy.ndarray'", but under jax 0.10.2 and flax 0.12.8 jit keys the bound method without hashing the module's fields, so the jitted apply runs and compiles once for repeated calls with the same shapes.

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
from typing import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class Actor(nn.Module):
    action_dim: Sequence[int]
    action_scale: Sequence[int]
    action_bias: Sequence[int]

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        x = nn.tanh(x)
        x = x * self.action_scale + self.action_bias
        return x


key = jax.random.PRNGKey(1)
key, actor_key, qf1_key = jax.random.split(key, 3)
action_high, action_low = np.array([[2.0]], np.float32), np.array([[-2.0]], np.float32)  # scaffolding: envs.action_space
obs = np.random.randn(1, 3).astype(np.float32)  # scaffolding: envs.reset()
action_scale = np.array((action_high - action_low) / 2.0)
action_bias = np.array((action_high + action_low) / 2.0)
actor = Actor(
    action_dim=np.prod((1,)),
    action_scale=action_scale,
    action_bias=action_bias,
)
actor_params = actor.init(actor_key, obs)
actor.apply = jax.jit(actor.apply)

for global_step in range(3):  # scaffolding: three steps past learning_starts
    actions = actor.apply(actor_params, obs)
    actions = np.array([(jax.device_get(actions)[0] + np.random.normal(0, action_scale * 0.1)[0]).clip(-2.0, 2.0)])
    obs = np.random.randn(1, 3).astype(np.float32)  # scaffolding: envs.step(actions)
_report({"jit(apply)"}, 3)  # scaffolding
