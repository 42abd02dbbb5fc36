# source: https://github.com/FelipeMartins96/ddpg-jax/commit/6598fe5ab4283fda92abe754695047c02a508781
# expect: none
# runtime: COMPILES 3 CALLS 15
# why: get_sample_action/get_update return jax.jit of closures built inside a factory and the commit adds jax.jit(self.actor.apply), but all three are built once in DDPG.__init__ and the parameters are passed explicitly, so each compiles once across steps.
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
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax


class JaxActor(nn.Module):
    act_size: int

    @nn.compact
    def __call__(self, o):
        x = nn.relu(nn.Dense(256)(o))
        x = nn.relu(nn.Dense(256)(x))
        x = nn.relu(nn.Dense(512)(x))
        x = nn.relu(nn.Dense(512)(x))
        x = nn.relu(nn.Dense(256)(x))
        x = nn.tanh(nn.Dense(self.act_size)(x))

        return x


class JaxCritic(nn.Module):
    @nn.compact
    def __call__(self, o, a):
        x = nn.relu(nn.Dense(512)(o))
        x = nn.relu(nn.Dense(512)(x))
        x = nn.relu(nn.Dense(1024)(x))
        x = jnp.concatenate([x, a], axis=-1)
        x = nn.relu(nn.Dense(512)(x))
        x = nn.relu(nn.Dense(512)(x))
        x = nn.Dense(1)(x)

        return x



def get_sample_action(act_model, sigma):
    def sample(k, params, obs):
        key, k = jax.random.split(k)
        act = act_model.apply(params, obs)
        noise = jax.random.normal(key=k, shape=act.shape) * sigma
        act = jnp.clip(act + noise, -1, 1)
        return key, act

    return jax.jit(sample)


def get_update(act_model, crt_model, optimizer, gamma, tau):
    def critic_loss(
        crt_params, tgt_act_params, tgt_crt_params, obs, acts, rws, dones, next_obs
    ):
        q_value = crt_model.apply(crt_params, obs, acts)  # expected q
        a_next = act_model.apply(
            tgt_act_params, next_obs
        )  # Get an Bootstrap Action for next_obs
        q_next = crt_model.apply(tgt_crt_params, next_obs, a_next)  # bootstrap q next
        q_next = q_next * (1.0 - dones)  # No bootstrap if transition is terminal
        q_ref = rws + q_next * gamma
        loss = jnp.mean((q_value - q_ref) ** 2)
        return loss

    def actor_loss(act_params, crt_params, obs):
        a_cur = act_model.apply(act_params, obs)
        loss = -crt_model.apply(crt_params, obs, a_cur)
        loss = jnp.mean(loss)
        return loss

    crt_loss_grad = jax.grad(critic_loss)
    act_loss_grad = jax.grad(actor_loss)

    def update(
        act_params,
        crt_params,
        tgt_act_params,
        tgt_crt_params,
        act_opt_params,
        crt_opt_params,
        obs,
        acts,
        rws,
        dones,
        next_obs,
    ):
        # update critic
        critic_grad = crt_loss_grad(
            crt_params, tgt_act_params, tgt_crt_params, obs, acts, rws, dones, next_obs
        )
        updates, new_crt_opt_params = optimizer.update(critic_grad, crt_opt_params)
        new_crt_params = optax.apply_updates(crt_params, updates)

        # update actor
        act_grad = act_loss_grad(act_params, crt_params, obs)
        updates, new_act_opt_params = optimizer.update(act_grad, act_opt_params)
        new_act_params = optax.apply_updates(act_params, updates)

        # sync networks
        new_tgt_act_params = jax.tree_util.tree_map(  # (jax.tree_multimap in the original; removed from jax)
           
            lambda p, tp: p * tau + tp * (1 - tau), act_params, tgt_act_params
        )
        new_tgt_crt_params = jax.tree_util.tree_map(  # (jax.tree_multimap in the original; removed from jax)
           
            lambda p, tp: p * tau + tp * (1 - tau), crt_params, tgt_crt_params
        )

        return (
            new_act_params,
            new_crt_params,
            new_tgt_act_params,
            new_tgt_crt_params,
            new_act_opt_params,
            new_crt_opt_params,
        )

    return jax.jit(update)


class DDPG:
    def __init__(self, obs_space, act_space, lr, gamma, seed):
        self.key = jax.random.PRNGKey(seed)
        self.key, k0, k1 = jax.random.split(self.key, 3)
        act_size = act_space.shape[0]
        self.actor = JaxActor(act_size)
        self.critic = JaxCritic()
        self.actor_params = self.actor.init(k0, obs_space.sample())
        self.critic_params = self.critic.init(
            k1, obs_space.sample(), act_space.sample()
        )
        self.tgt_actor_params = self.actor_params
        self.tgt_critic_params = self.critic_params

        # Optimizers
        optimizer = optax.chain(
            optax.scale_by_adam(),
            optax.scale(-lr),
        )
        self.act_opt_params = optimizer.init(self.actor_params)
        self.crt_opt_params = optimizer.init(self.critic_params)

        self._sample_action = get_sample_action(self.actor, 0.2)
        self._update = get_update(self.actor, self.critic, optimizer, gamma, 0.005)
        self._get_action = jax.jit(self.actor.apply)

    def sample_action(self, obs):
        self.key, action = self._sample_action(self.key, self.actor_params, obs)
        return action

    def get_action(self, obs):
        return self._get_action(self.actor_params, obs)

    def update(self, batch):
        obs, acts, rws, dones, next_obs = batch

        (
            self.actor_params,
            self.critic_params,
            self.tgt_actor_params,
            self.tgt_critic_params,
            self.act_opt_params,
            self.crt_opt_params,
        ) = self._update(
            self.actor_params,
            self.critic_params,
            self.tgt_actor_params,
            self.tgt_critic_params,
            self.act_opt_params,
            self.crt_opt_params,
            obs,
            acts,
            rws,
            dones,
            next_obs,
        )


class _Box:  # scaffolding: stands in for gym.spaces.Box
    def __init__(self, shape):
        self.shape = shape

    def sample(self):
        return np.random.default_rng(0).uniform(-1, 1, self.shape).astype(np.float32)


agent = DDPG(_Box((8,)), _Box((2,)), lr=1e-3, gamma=0.99, seed=0)  # scaffolding
rng = np.random.default_rng(1)  # scaffolding
for step in range(5):  # scaffolding: the training loop of the rsoccer script, cut down
    obs = rng.standard_normal(8).astype(np.float32)
    action = agent.sample_action(obs)
    greedy = agent.get_action(obs)
    batch = (rng.standard_normal((32, 8)).astype(np.float32), rng.uniform(-1, 1, (32, 2)).astype(np.float32),
             rng.standard_normal((32, 1)).astype(np.float32), np.zeros((32, 1), np.float32),
             rng.standard_normal((32, 8)).astype(np.float32))
    agent.update(batch)
_report({"jit(sample)", "jit(update)", "jit(apply)"}, 15)
