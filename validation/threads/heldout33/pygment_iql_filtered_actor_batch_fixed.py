# source: https://github.com/tdgfrost/pygment/commit/f9d5ec00665d77270bbf86589c57d5be225c39b3
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The commit keeps only the first 512 indices that pass the filter and updates only when 512 are available, so every actor update sees the same batch shape.

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
from collections import namedtuple
from typing import Any, Dict, Optional, Tuple

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import struct
from jax import Array, grad, jit

# core/common.py
Params = flax.core.FrozenDict[str, Any]
InfoDict = Dict[str, Any]
PRNGKey = Any
fields = ['states', 'actions', 'rewards', 'discounted_rewards', 'episode_rewards',
          'next_states', 'next_actions', 'dones', 'action_logprobs', 'advantages', 'intervals',
          'len_actions', 'next_len_actions']
Batch = namedtuple('Batch', fields, defaults=(None,) * len(fields))


def filter_to_action(array, actions):
    return jax.lax.gather(array,
                          jnp.concatenate((jnp.arange(len(actions)).reshape(-1, 1),
                                           actions.reshape(-1, 1)), axis=1),
                          jax.lax.GatherDimensionNumbers(
                              offset_dims=tuple([]),
                              collapsed_slice_dims=tuple([0, 1]),
                              start_index_map=tuple([0, 1])), tuple([1, 1]))


def filter_dataset(batch: Batch, boolean_identity, target_keys: list):
    filtered_batch = batch._asdict()

    for key, val in filtered_batch.items():
        if key in target_keys:
            if val is None:
                continue
            if type(val) == list:
                filtered_batch[key] = [item for idx, item in zip(boolean_identity, val) if idx]
            else:
                filtered_batch[key] = val[boolean_identity]

    return Batch(**filtered_batch)


@struct.dataclass
class Model:  # scaffolding: core/net.py Model trimmed to network/params/optim/opt_state, apply and apply_gradient
    network: nn.Module = struct.field(pytree_node=False)
    params: Params
    optim: Optional[optax.GradientTransformation] = struct.field(pytree_node=False)
    opt_state: Optional[optax.OptState] = None

    def apply(self, *args, **kwargs):
        return self.network.apply(*args, **kwargs)

    def apply_gradient(self, loss_fn) -> Tuple['Model', Any]:
        # Convert the loss function to a gradient function
        grad_fn = grad(loss_fn, has_aux=True)

        # Calculate the gradients and relevant metadata
        grads, info = grad_fn(self.params)

        # Calculate the parameter updates, as well as the new optimiser state
        updates, new_opt_state = self.optim.update(grads, self.opt_state,
                                                   self.params)

        # Calculate the new parameters
        new_params = optax.apply_updates(self.params, updates)
        return self.replace(params=new_params, opt_state=new_opt_state), info


# update/loss.py
def convert_logits_to_action_logprobs(logits, actions, **kwargs):
    logprobs = nn.log_softmax(logits, axis=-1)
    action_logprobs = filter_to_action(logprobs, actions)

    action_logprobs = jnp.where(jnp.isinf(action_logprobs),
                                -1000,
                                action_logprobs)

    return action_logprobs


def clone_behaviour(logits, batch, **kwargs):
    # Convert the logits to action log_probs
    action_logprobs = convert_logits_to_action_logprobs(logits, batch.actions)

    # Maximise the logprobs
    return -action_logprobs


# update/actor.py
def update_policy(actor: Model, batch: Batch, **kwargs) -> Tuple[Model, InfoDict]:
    loss_fn = {'clone': clone_behaviour}  # ('ppo' and 'iql' losses trimmed)

    def actor_loss_fn(actor_params: Params) -> tuple[Array, dict[str, Array]]:
        # Generate the logits for the actions
        layer_outputs, logits = actor.apply({'params': actor_params},
                                            batch.states)
        actor_loss = loss_fn[list(kwargs['actor_loss_fn'].keys())[0]](logits,
                                                                      batch,
                                                                      **kwargs).mean()

        # Return the loss value, plus metadata
        return actor_loss, {'actor_loss': actor_loss,
                            'layer_outputs': layer_outputs,
                            }

    # Calculate the updated model parameters using the loss function
    new_actor, info = actor.apply_gradient(actor_loss_fn)

    # Return the new model parameters, plus loss metadata
    return new_actor, info


# update/actions.py
@jit
def _update_actor_jit(
    rng: PRNGKey, actor: Model,
    batch: Batch, **kwargs
) -> tuple[Any, Model, dict[Any, Any]]:

    key, rng = jax.random.split(rng)
    new_actor, actor_info = update_policy(actor, batch, **kwargs)

    return rng, new_actor, {
        **actor_info
    }


class _ActorNet(nn.Module):  # scaffolding: stands in for core/net.py ActorNet (returns layer outputs, logits)
    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(32)(x))
        return {'MLP_0': h}, nn.Dense(2)(h)


class IQLAgent:  # scaffolding: core/agent.py IQLAgent, only the actor branch of update_async kept
    def __init__(self, obs_dim=4):
        net = _ActorNet()
        params = net.init(jax.random.PRNGKey(0), jnp.zeros((1, obs_dim)))['params']
        optim = optax.adam(0.001)
        self.actor = Model(net, params, optim, optim.init(params))
        self.rng = jax.random.PRNGKey(123)

    def update_async(self, batch: Batch, actor: bool = False, **kwargs) -> InfoDict:
        # Create an updated copy of the required networks
        new_rng, new_actor, actor_info = _update_actor_jit(
            self.rng, self.actor, batch, **kwargs) if actor else (self.rng, self.actor, {})
        self.rng = new_rng
        self.actor = new_actor
        return {**actor_info}


# IQL_train.py (the actor step of the training loop; value/critic updates trimmed)
config = {'filter_point': 0}  # (rest of the config trimmed)
agent = IQLAgent()
data_rng = np.random.default_rng(0)  # scaffolding: stand-in for agent.sample(...) and the critic/value advantages
n_epochs = 5  # scaffolding: 'epochs': int(2e6)
updates = 0
for epoch in range(n_epochs):
    batch = Batch(states=jnp.asarray(data_rng.normal(size=(2048, 4)), jnp.float32),  # scaffolding
                  actions=jnp.asarray(data_rng.integers(0, 2, 2048)))  # scaffolding
    advantages = jnp.asarray(data_rng.normal(size=2048), jnp.float32)  # scaffolding
    batch = Batch(**{**batch._asdict(), 'advantages': advantages})  # scaffolding: alter_batch(batch, advantages=...)
    filter_point = config['filter_point']

    filter_array = np.where(advantages > filter_point)[0][:512]

    batch = filter_dataset(batch, filter_array,  # (the commit wrote filter_dataset(filter_array, ...), dropping `batch`)
                           target_keys=['states', 'actions', 'advantages'])

    if (batch.advantages > filter_point).sum() >= 512:
        loss_info = agent.update_async(batch,
                                       actor_loss_fn={'clone': 0},
                                       actor=True)
        updates += 1
    else:
        loss_info = {'actor_loss': None}
jax.block_until_ready(agent.actor.params)
_report({"jit(_update_actor_jit)"}, updates)
