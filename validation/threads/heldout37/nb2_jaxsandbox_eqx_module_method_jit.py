# source: https://github.com/howird/jax-sandbox/blob/95b6d574f53d1abe3eaf306f6cd7f1139f5b3286/packages/rl/models/policy.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: forward_batch is a plain @jax.jit on an equinox.Module method; self is a pytree argument, so a new observation batch and updated weights reuse the one compile.

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
import jax
import jax.numpy as jnp
import equinox as eqx


from jaxtyping import Array, Float


class DeterministicActor(eqx.Module):
    action_scale: Float[Array, "..."]
    action_bias: Float[Array, "..."]

    layer1: eqx.nn.Linear
    layer2: eqx.nn.Linear
    layer3: eqx.nn.Linear

    def __init__(self, obs_dim: int, action_dim: int, action_scale, action_bias, key):
        self.action_scale = action_scale
        self.action_bias = action_bias

        keys = jax.random.split(key, 3)
        self.layer1 = eqx.nn.Linear(obs_dim, 256, key=keys[0])
        self.layer2 = eqx.nn.Linear(256, 256, key=keys[1])
        self.layer3 = eqx.nn.Linear(256, action_dim, key=keys[2])

    def __call__(self, x: jnp.ndarray):
        x = jax.nn.relu(self.layer1(x))
        x = jax.nn.relu(self.layer2(x))
        x = jax.nn.tanh(self.layer3(x))
        x = x * self.action_scale + self.action_bias

        return x

    @jax.jit
    def forward_batch(self, x):
        result = jax.vmap(self.__call__)(x)
        return result


# scaffolding: the actor used as td3.py uses it, a batch of observations per step and a
# parameter update in between (the repo's training loop needs gym and a replay buffer)
key = jax.random.PRNGKey(0)
actor = DeterministicActor(3, 1, jnp.array([2.0]), jnp.array([0.0]), key)
for step in range(4):
    key, sub = jax.random.split(key)
    observations = jax.random.normal(sub, (256, 3))
    actions = actor.forward_batch(observations)
    actor = jax.tree_util.tree_map(lambda p: p * 0.99 if eqx.is_inexact_array(p) else p, actor)
print(actions.shape)
_report({"jit(forward_batch)"}, 4)
