# source: https://github.com/Sha01in/world-models-jax/blob/d5a1d9fee5e804b8bd04822c5d99e9814bfe21d3/scripts/data_collection/data_collection_iterative_serial.py
# expect: none
# runtime: COMPILES 3 CALLS 180
# why: Three @jax.jit functions are defined inside collect_data() and close over the loaded models, but collect_data() runs once and the per-step inputs keep one shape and dtype (the warmup action and the controller action are both float32), so each compiles once.

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
import equinox as eqx

# Settings
NUM_EPISODES = 3  # scaffolding: was 500
MAX_STEPS = 60  # scaffolding: was 600 (still past the 50-frame warmup)
DATA_DIR = "data/rollouts_iterative"
IMG_SIZE = 64
LATENT_DIM = 32
HIDDEN_SIZE = 256
ACTION_DIM = 3


class _Encoder(eqx.Module):  # scaffolding: stands in for src.vae.VAE (encoder + mu_head)
    encoder: eqx.nn.Conv2d
    mu_head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.encoder = eqx.nn.Conv2d(3, 4, kernel_size=8, stride=8, key=k1)
        self.mu_head = eqx.nn.Linear(4 * 8 * 8, LATENT_DIM, key=k2)


class _RNN(eqx.Module):  # scaffolding: stands in for src.rnn.MDNRNN
    cell: eqx.nn.LSTMCell

    def __init__(self, key):
        self.cell = eqx.nn.LSTMCell(LATENT_DIM + ACTION_DIM, HIDDEN_SIZE, key=key)

    def __call__(self, x, hc):
        h, c = self.cell(x, hc)
        return h, (h, c)


def get_action(params, z, h):  # scaffolding: stands in for src.controller.get_action
    return jnp.tanh(params @ jnp.concatenate([z, h]))


def load_models():  # scaffolding: random models instead of the checkpoints
    key = jax.random.PRNGKey(0)
    vae = _Encoder(key)
    rnn = _RNN(key)
    params = jnp.zeros((ACTION_DIM, LATENT_DIM + HIDDEN_SIZE))
    return vae, rnn, params


class _CarRacing:  # scaffolding: stands in for gym.make("CarRacing-v3")
    def __init__(self):
        self.rng = np.random.default_rng(0)

    def reset(self):
        return self.rng.integers(0, 255, (96, 96, 3), dtype=np.uint8), {}

    def step(self, action):
        return self.rng.integers(0, 255, (96, 96, 3), dtype=np.uint8), 0.1, False, False, {}

    def close(self):
        pass


def _resize(obs, size):  # scaffolding: stands in for cv2.resize (cv2 not installed)
    idx = np.linspace(0, obs.shape[0] - 1, size).astype(int)
    return obs[idx][:, idx]


def collect_data():
    vae, rnn, controller_params = load_models()
    
    @jax.jit
    def encode(img):
        x = jnp.array(img, dtype=jnp.float32) / 255.0
        x = jnp.transpose(x, (2, 0, 1))
        features = vae.encoder(x)
        features = jnp.reshape(features, (-1,))
        mu = vae.mu_head(features)
        return mu

    @jax.jit
    def get_step_action(z, h):
        return get_action(controller_params, z, h)

    @jax.jit
    def rnn_next(z, a, h, c):
        rnn_in = jnp.concatenate([z, a], axis=0)
        _, (h_new, c_new) = rnn(rnn_in, (h, c))
        return h_new, c_new

    env = _CarRacing()  # scaffolding: gym.make("CarRacing-v3", render_mode="rgb_array")
    
    for i in range(NUM_EPISODES):
        obs, _ = env.reset()
        h = jnp.zeros(HIDDEN_SIZE)
        c = jnp.zeros(HIDDEN_SIZE)
        
        obs_seq, action_seq, reward_seq, done_seq = [], [], [], []
        
        # Current held action
        current_action = np.array([0.0, 0.0, 0.0], dtype=np.float32)
        rnn_action = jnp.array(current_action)
        
        for t in range(MAX_STEPS):
            obs_small = _resize(obs, IMG_SIZE)  # (cv2.resize(obs, (IMG_SIZE, IMG_SIZE)))
            obs_seq.append(obs_small)
            
            z = encode(obs_small)
            
            # WARMUP (Frames 0-50): Drive Straight
            if t < 50:
                current_action = np.array([0.0, 0.5, 0.0], dtype=np.float32)
                rnn_action = jnp.array(current_action)
            else:
                # NO ACTION REPEAT (matching latest test_agent)
                action_jax = get_step_action(z, h)
                current_action = np.array(action_jax)
                rnn_action = action_jax
            
            # Add slight noise to encourage exploration around the failure
            current_action += np.random.normal(0, 0.05, size=3)
            current_action = np.clip(current_action, [-1, 0, 0], [1, 1, 1])

            action_seq.append(current_action)
            
            obs, reward, term, trunc, _ = env.step(current_action)
            reward_seq.append(reward)
            done = term or trunc
            done_seq.append(done)
            
            h, c = rnn_next(z, rnn_action, h, c)
            
            if done:
                break
        # (np.savez_compressed of the rollout cut)
            
    env.close()


collect_data()  # scaffolding: one collection run of NUM_EPISODES episodes
_report({"jit(encode)", "jit(get_step_action)", "jit(rnn_next)"}, NUM_EPISODES * MAX_STEPS)
