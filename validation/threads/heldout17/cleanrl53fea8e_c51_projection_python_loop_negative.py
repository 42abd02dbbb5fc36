# source: https://github.com/vwxyzjn/cleanrl/commit/53fea8e099a9d32f0b260fdf0b47d7b0500c3727
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the categorical projection loops in Python over the 128 batch rows inside the jitted update, which unrolls into a large graph and makes the one compile slow (about 20 s here), but the three updates share that single compile.

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


import types  # scaffolding

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState

_jnp_clip = jnp.clip  # scaffolding: jnp.clip's a_min/a_max keywords were removed from jax after this commit
jnp.clip = lambda x, a_min=None, a_max=None: _jnp_clip(x, min=a_min, max=a_max)  # scaffolding

# cleanrl/c51_jax.py (before the commit; QNetwork, TrainState and update)
class QNetwork(nn.Module):
    action_dim: int
    n_atoms: int

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(120)(x)
        x = nn.relu(x)
        x = nn.Dense(84)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim * self.n_atoms)(x)
        x = x.reshape((x.shape[0], self.action_dim, self.n_atoms))
        x = nn.softmax(x, axis=-1)  # pmfs
        return x


class TrainState(TrainState):
    target_params: flax.core.FrozenDict
    atoms: jnp.ndarray


# scaffolding: the script's defaults (CartPole-v1: 4 observations, 2 actions), the network and state set up as the script does
args = types.SimpleNamespace(gamma=0.99, v_min=-100, v_max=100, n_atoms=101, batch_size=128, learning_rate=2.5e-4)
q_network = QNetwork(action_dim=2, n_atoms=args.n_atoms)
q_key = jax.random.PRNGKey(1)
obs = np.zeros((1, 4), np.float32)
q_state = TrainState.create(
    apply_fn=None,
    params=q_network.init(q_key, obs),
    target_params=q_network.init(q_key, obs),
    atoms=jnp.asarray(np.linspace(args.v_min, args.v_max, num=args.n_atoms)),
    tx=optax.adam(learning_rate=args.learning_rate, eps=0.01 / args.batch_size),
)
if True:  # scaffolding: keeps the script's indentation
    @jax.jit
    def update(q_state, observations, actions, next_observations, rewards, dones):
        next_pmfs = q_network.apply(q_state.target_params, next_observations)  # (batch_size, num_actions, num_atoms)
        next_vals = (next_pmfs * q_state.atoms).sum(axis=-1)  # (batch_size, num_actions)
        next_action = jnp.argmax(next_vals, axis=-1)  # (batch_size,)
        next_pmfs = next_pmfs[np.arange(next_pmfs.shape[0]), next_action]
        next_atoms = rewards + args.gamma * q_state.atoms * (1 - dones)
        # projection
        delta_z = q_state.atoms[1] - q_state.atoms[0]
        tz = jnp.clip(next_atoms, a_min=(args.v_min), a_max=(args.v_max))

        b = (tz - args.v_min) / delta_z
        l = jnp.clip(jnp.floor(b), a_min=0, a_max=args.n_atoms - 1)
        u = jnp.clip(jnp.ceil(b), a_min=0, a_max=args.n_atoms - 1)
        # (l == u).astype(jnp.float) handles the case where bj is exactly an integer
        # example bj = 1, then the upper ceiling should be uj= 2, and lj= 1
        d_m_l = (u + (l == u).astype(jnp.float32) - b) * next_pmfs
        d_m_u = (b - l) * next_pmfs
        target_pmfs = jnp.zeros_like(next_pmfs)

        for i in range(target_pmfs.shape[0]):
            target_pmfs = target_pmfs.at[i, l[i].astype(jnp.int32)].add(d_m_l[i])
            target_pmfs = target_pmfs.at[i, u[i].astype(jnp.int32)].add(d_m_u[i])

        def loss(q_params, observations, actions, target_pmfs):
            pmfs = q_network.apply(q_params, observations)
            old_pmfs = pmfs[np.arange(pmfs.shape[0]), actions.squeeze()]

            old_pmfs_l = jnp.clip(old_pmfs, a_min=1e-5, a_max=1 - 1e-5)
            loss = (-(target_pmfs * jnp.log(old_pmfs_l)).sum(-1)).mean()
            return loss, (old_pmfs * q_state.atoms).sum(-1)

        (loss_value, old_values), grads = jax.value_and_grad(loss, has_aux=True)(
            q_state.params, observations, actions, target_pmfs
        )
        q_state = q_state.apply_gradients(grads=grads)
        return loss_value, old_values, q_state


# scaffolding: three updates on random replay batches, as the training loop calls update
rng = np.random.default_rng(0)
calls = 0
for _ in range(3):
    loss, old_val, q_state = update(
        q_state,
        rng.normal(size=(args.batch_size, 4)).astype(np.float32),
        rng.integers(0, 2, size=(args.batch_size, 1)),
        rng.normal(size=(args.batch_size, 4)).astype(np.float32),
        rng.normal(size=(args.batch_size, 1)).astype(np.float32),
        rng.integers(0, 2, size=(args.batch_size, 1)).astype(np.float32),
    )
    calls += 1
_report({"jit(update)"}, calls)
