# source: https://github.com/otr-ebla/LegNav-Sim/commit/f8a51c4cfe0ffde4a6e2be8a11b28cd964904c61
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix marks index 7 (explore) static; it is passed as explore=True on every step (static_argnames is inferred from the index), so the four acting steps share one compile.

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
# src/jax_env/dreamer_train.py of otr-ebla/LegNav-Sim at f8a51c4 (act_step, the network instantiation and the acting part of the main loop; world-model/actor/critic training cut)
import jax
import jax.numpy as jnp
import optax
import time
import argparse
from functools import partial

# --- scaffolding: small stand-ins for dreamer_rssm / dreamer_behavior (project modules) ---
import flax.linen as nn  # scaffolding
H_DIM, Z_DIM, OBS_DIM = 32, 16, 342  # scaffolding: 512 / 32*32 in the project


class DreamerEncoder(nn.Module):  # scaffolding
    @nn.compact
    def __call__(self, obs):
        return nn.elu(nn.Dense(32)(obs))


class RSSM(nn.Module):  # scaffolding: same method names as dreamer_rssm.RSSM
    action_dim: int = 2

    def setup(self):
        self.gru = nn.GRUCell(features=H_DIM)
        self.inp = nn.Dense(H_DIM)
        self.prior_head = nn.Dense(Z_DIM)
        self.post_head = nn.Dense(Z_DIM)

    def step_gru(self, h_prev, z_prev, action):
        h, _ = self.gru(h_prev, nn.elu(self.inp(jnp.concatenate([z_prev, action], axis=-1))))
        return h

    def prior(self, h_t):
        logits = self.prior_head(h_t)
        return jax.nn.softmax(logits), logits

    def posterior(self, h_t, obs_embed):
        logits = self.post_head(jnp.concatenate([h_t, obs_embed], axis=-1))
        if self.has_rng("gumbel"):
            logits = logits + jax.random.gumbel(self.make_rng("gumbel"), logits.shape)
        return jax.nn.softmax(logits), logits

    def __call__(self, h, z, a, obs_embed):
        h = self.step_gru(h, z, a)
        return self.posterior(h, obs_embed), self.prior(h)


class DreamerActor(nn.Module):  # scaffolding
    action_dim: int = 2

    @nn.compact
    def __call__(self, h, z):
        x = nn.elu(nn.Dense(32)(jnp.concatenate([h, z], axis=-1)))
        return nn.Dense(self.action_dim)(x), jax.nn.softplus(nn.Dense(self.action_dim)(x)) + 0.1


class _Stub(nn.Module):  # scaffolding: decoders / critic are not used by act_step
    obs_dim: int = 1
    @nn.compact
    def __call__(self, h, z):
        return nn.Dense(1)(h)


ObservationDecoder = RewardDecoder = ContinueDecoder = DreamerCritic = _Stub  # scaffolding


def sample_action(rng_key, mean, std):  # scaffolding: verbatim from dreamer_behavior.py
    noise = jax.random.normal(rng_key, mean.shape)
    raw_action = mean + noise * std
    action = jnp.tanh(raw_action)
    log_prob = -0.5 * jnp.sum(jnp.square(noise) + jnp.log(2 * jnp.pi) + 2 * jnp.log(std), axis=-1)
    log_prob -= jnp.sum(jnp.log(1.0 - jnp.square(action) + 1e-6), axis=-1)
    return action, log_prob
# --- end scaffolding ---

# --- Hyperparameters ---
NUM_ENVS = 8  # scaffolding: 8 instead of 64
SEQ_LEN = 64
BATCH_SIZE = 16
HORIZON = 15
BUFFER_CAPACITY = 100000 
PREFILL_STEPS = 1000

LR_WM = 1e-4
LR_ACTOR = 3e-5
LR_CRITIC = 3e-5
GAMMA = 0.99
LAMBDA = 0.95
ENTROPY_COEF = 3e-4

# --- Network Instantiation ---
encoder = DreamerEncoder()
rssm = RSSM(action_dim=2)
obs_decoder = ObservationDecoder(obs_dim=342)
rew_decoder = RewardDecoder()
cont_decoder = ContinueDecoder()
actor = DreamerActor(action_dim=2)
critic = DreamerCritic()


@partial(jax.jit, static_argnums=(7,))
def act_step(rng_key, wm_params, actor_params, obs, prev_h, prev_z, prev_action, explore: bool = True):
    rng_key, post_key, act_key = jax.random.split(rng_key, 3)
    
    obs_embed = encoder.apply({'params': wm_params['encoder']}, obs)
    h_t = rssm.apply({'params': wm_params['rssm']}, prev_h, prev_z, prev_action, method=rssm.step_gru)
    
    # Provide the gumbel stream
    z_t, _ = rssm.apply({'params': wm_params['rssm']}, h_t, obs_embed, method=rssm.posterior, rngs={'gumbel': post_key})
    
    mean, std = actor.apply({'params': actor_params}, h_t, z_t)
    
    if explore:
        action, _ = sample_action(act_key, mean, std)
    else:
        action = jnp.tanh(mean)
        
    return action, h_t, z_t


if True:  # scaffolding: was if __name__ == "__main__"
    rng = jax.random.PRNGKey(42)
    rng, env_rng, init_rng = jax.random.split(rng, 3)
    dummy_obs = jnp.zeros((1, OBS_DIM))  # scaffolding: sizes
    dummy_h = jnp.zeros((1, H_DIM))  # scaffolding: sizes
    dummy_z = jnp.zeros((1, Z_DIM))  # scaffolding: sizes
    dummy_act = jnp.zeros((1, 2))
    params = {
        'wm': {
            'encoder': encoder.init(init_rng, dummy_obs)['params'],
            'rssm': rssm.init(init_rng, dummy_h, dummy_z, dummy_act, jnp.zeros((1, 32)))['params'],  # scaffolding: init through __call__
        },
        'actor': actor.init(init_rng, dummy_h, dummy_z)['params'],
    }
    env_obs = jnp.zeros((NUM_ENVS, OBS_DIM))  # scaffolding: env cut
    current_h = jnp.zeros((NUM_ENVS, H_DIM))  # scaffolding: sizes
    current_z = jnp.zeros((NUM_ENVS, Z_DIM))  # scaffolding: sizes
    current_action = jnp.zeros((NUM_ENVS, 2))
    calls = 0  # scaffolding
    try:  # scaffolding
        for step in range(4):  # scaffolding: 4 instead of 50000
            rng, act_rng, step_rng, train_rng = jax.random.split(rng, 4)

            # 1. ACT: Ask the Actor what to do based on the current latent reality
            raw_actions, current_h, current_z = act_step(
                act_rng, params['wm'], params['actor'], 
                env_obs, current_h, current_z, current_action, explore=True
            )
            current_action = raw_actions
            env_obs = env_obs + 0.01 * jnp.sum(raw_actions, axis=-1, keepdims=True)  # scaffolding: env step cut
            calls += 1  # scaffolding
        _report({"jit(act_step)"}, calls)  # scaffolding
    except Exception as e:  # scaffolding
        print(f"ERROR {type(e).__name__}")  # scaffolding
