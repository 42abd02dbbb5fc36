# source: https://github.com/henry-prior/jax-rl/commit/b25a4c9648a84ac1b5b3b8b634657c008a002c4f
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The fix from b25a4c9: apply_td3_actor_model declares action_dim and max_action static (static_argnums=(1, 2)), so TD3Actor gets concrete hyperparameters and the function compiles once for repeated action selection.

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
from functools import partial

import jax
import jax.numpy as jnp
from flax import linen as nn
from flax.core.frozen_dict import FrozenDict
PRNGSequence = jax.Array  # scaffolding: haiku is not installed; used only in annotations


class TD3Actor(nn.Module):
    action_dim: int
    max_action: float

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(features=256)(x)
        x = nn.relu(x)
        x = nn.Dense(features=256)(x)
        x = nn.relu(x)
        x = nn.Dense(features=self.action_dim)(x)
        return self.max_action * nn.tanh(x)


def build_td3_actor_model(
    input_shapes: float, action_dim: int, max_action: float, init_rng: PRNGSequence
) -> FrozenDict:
    init_batch = jnp.ones(input_shapes, jnp.float32)
    actor = TD3Actor(action_dim=action_dim, max_action=max_action)
    init_variables = actor.init(init_rng, init_batch)

    return init_variables["params"]


@partial(jax.jit, static_argnums=(1, 2))
def apply_td3_actor_model(
    params: FrozenDict, action_dim: int, max_action: float, state: jnp.ndarray,
) -> jnp.ndarray:
    return TD3Actor(action_dim=action_dim, max_action=max_action).apply(
        dict(params=params), state
    )


# scaffolding: stand-in for TD3.__init__ / TD3.select_action
state_dim, action_dim, max_action = 3, 2, 1.0
actor_params = build_td3_actor_model((1, state_dim), action_dim, max_action, jax.random.PRNGKey(0))
n_calls = 3
try:
    for i in range(n_calls):
        state = jnp.ones((state_dim,)) * i
        action = apply_td3_actor_model(actor_params, action_dim, max_action, state.reshape(1, -1)).flatten()
    _report({"jit(apply_td3_actor_model)"}, n_calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
