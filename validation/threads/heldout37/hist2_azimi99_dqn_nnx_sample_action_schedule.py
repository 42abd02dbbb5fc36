# source: https://github.com/azimi99/JAX-RL/commit/0270e0bbc85d095c31218ba53ab7d4389e7e391c
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: sample_action (nnx.jit) is called every step with an epsilon that changes each call and with a q_net that train_step updates in place between calls; epsilon is a traced scalar and nnx.jit passes the module state as arguments, so it compiles once and always sees the current parameters.
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
import numpy as np
import jax
import jax.numpy as jnp
from flax import nnx
import optax
from typing import Any, Callable, List, NamedTuple


# --- dqn/networks/mlp.py ---
class MLP(nnx.Module):
    def __init__(self, 
                in_dim: int,
                hidden_dims: tuple[int,...],
                out_dim: int, 
                rngs: nnx.Rngs, 
                activation_fn: Callable = nnx.relu):
        dims = (in_dim, *hidden_dims, out_dim)
        self.activation_fn = activation_fn
        self.layers = nnx.List([nnx.Linear(dims[i], dims[i+1], rngs=rngs) for i in range(len(dims) - 1)])  # scaffolding: nnx.List (flax 0.12 rejects a plain list of modules)
        
    def __call__(self, x) -> jnp.ndarray:
        
        for layer in self.layers[:-1]:
            x = layer(x)
            x = self.activation_fn(x)
        x = self.layers[-1](x)
        return x


# --- dqn/networks/networks.py ---
class QNetwork(nnx.Module):
    def __init__(self,
                 obs_dim: int,
                 action_dim: int,
                 hidden_dims: tuple[int,...],
                 rngs: nnx.Rngs):
        self.mlp_backbone = MLP(
            in_dim=obs_dim,
            out_dim=action_dim,
            hidden_dims=hidden_dims,
            activation_fn=nnx.tanh,
            rngs=rngs
        )
    def __call__(self, obs: jax.Array) -> jax.Array:
        
        return self.mlp_backbone(obs)


class Batch(NamedTuple):  # scaffolding: stand-in for dqn.networks.buffer.Batch
    states: jax.Array
    actions: jax.Array
    next_states: jax.Array
    rewards: jax.Array
    dones: jax.Array


# --- dqn/train/train.py ---
@nnx.jit
def loss_fn(q_net: nnx.Module,
            target_q_net: nnx.Module, 
            batch: Batch,
            gamma: float):
    states = batch.states # (B, S)
    actions = batch.actions # (B, 1), action is a single integer
    #Expand dimensions to prevent (B,) and (B, 1) broadcasting to (B, B)
    dones = jnp.expand_dims(batch.dones, axis=1)       # (B,) -> (B, 1)
    rewards = jnp.expand_dims(batch.rewards, axis=1)   # (B,) -> (B, 1)
    next_states = batch.next_states
    state_action_values = jnp.take_along_axis(nnx.vmap(q_net)(states), actions.astype(int), axis=1) # (B, 1)
    next_state_values = jnp.max(target_q_net(next_states), axis=1, keepdims=True) # (B, 1)
    target_val = jax.lax.stop_gradient(rewards + gamma * (1 - dones) * next_state_values)
    td_error = target_val - state_action_values
    
    # huber loss
    loss = jnp.where(jnp.abs(td_error) <= 1.0, 
                     (0.5 * td_error ** 2), 
                     jnp.abs(td_error) - 0.5)
    
    return jnp.mean(loss)


@nnx.jit
def train_step(q_net: nnx.Module,
               target_q_net:nnx.Module,
               optimizer: nnx.Optimizer,
               batch: Batch,
               gamma: float,
               tau: float) -> jax.Array:
    loss, grads = nnx.value_and_grad(loss_fn, argnums=0, has_aux=False)(q_net, 
                                              target_q_net, 
                                              batch, 
                                              gamma)

    optimizer.update(q_net, grads)  # scaffolding: flax 0.12 signature (the repo calls optimizer.update(grads))
    
    return loss


# --- train.py ---
@nnx.jit
def sample_action(
    q_net: nnx.Module,
    state: jax.Array,   # (num_envs, state_dim)
    key: jax.Array,
    epsilon: float,
) -> jax.Array:
    q_vals = q_net(state)  # (num_envs, action_dim)

    key_eps, key_act = jax.random.split(key)

    greedy_action = jnp.argmax(q_vals, axis=-1)  # (num_envs,)
    eps_sample = jax.random.uniform(key_eps, shape=(state.shape[0],))
    random_action = jax.random.randint(
        key_act,
        shape=(state.shape[0],),
        minval=0,
        maxval=q_vals.shape[-1],
    )

    return jnp.where(eps_sample > epsilon, greedy_action, random_action)


# main(), reduced: CartPole-sized stand-in env and batches (scaffolding)
num_envs, obs_dim, n_actions, batch_size = 5, 4, 2, 64  # scaffolding
rngs = nnx.Rngs(0)
q_net = QNetwork(obs_dim=obs_dim, action_dim=n_actions, hidden_dims=(256, 256), rngs=rngs)
target_q_net = QNetwork(obs_dim=obs_dim, action_dim=n_actions, hidden_dims=(256, 256), rngs=rngs)
nnx.update(target_q_net, nnx.state(q_net, nnx.Param))
lr_schedule = optax.linear_schedule(
    init_value=3e-4,
    end_value=1e-4,
    transition_steps=10000
)
tx = optax.adam(learning_rate=lr_schedule)
optimizer = nnx.Optimizer(q_net, tx=tx, wrt=nnx.Param)  # scaffolding: wrt= required by flax 0.12
epsilon_schedule = optax.linear_schedule(
    init_value=1.0,
    end_value=0.001,
    transition_steps=20_000
)
data_rng = np.random.default_rng(0)  # scaffolding
obs = data_rng.normal(size=(num_envs, obs_dim)).astype(np.float32)  # scaffolding
n_calls = 0  # scaffolding
for step in range(0, 30, num_envs):  # scaffolding: 6 iterations
    key = rngs()
    action = np.array(sample_action(
        q_net=q_net,
        state=obs,
        key=key,
        epsilon=epsilon_schedule(step)
    ))
    n_calls += 1
    obs = data_rng.normal(size=(num_envs, obs_dim)).astype(np.float32)  # scaffolding: env.step
    batch = Batch(  # scaffolding: sample_batch(buffer, key, batch_size)
        states=jnp.asarray(data_rng.normal(size=(batch_size, obs_dim)), jnp.float32),
        actions=jnp.asarray(data_rng.integers(0, n_actions, size=(batch_size, 1))),
        next_states=jnp.asarray(data_rng.normal(size=(batch_size, obs_dim)), jnp.float32),
        rewards=jnp.ones((batch_size,)), dones=jnp.zeros((batch_size,)))
    loss = train_step(
        q_net=q_net,
        target_q_net=target_q_net,
        optimizer=optimizer,
        batch=batch,
        gamma=0.99,
        tau=0.0
    )
_report({"jit(sample_action)"}, n_calls)
