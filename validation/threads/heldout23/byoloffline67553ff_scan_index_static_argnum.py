# source: https://github.com/dhruvsreenivas/byol-offline/commit/67553ffc6804d8c2ce27df14b2a832a79b2c8b32
# expect: bad-static-spec at line 63
# runtime: ERROR ValueError
# why: body_fn is jitted with the scan index idx marked static, but lax.scan passes idx as a tracer, so the jit call rejects it as a non-hashable static argument.

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


import functools
from typing import Optional, Tuple

import jax
import jax.numpy as jnp


def l2_normalize(x: jnp.ndarray, axis: Optional[int] = None, epsilon: float=1e-12) -> jnp.ndarray:
    '''Stable L2 normalization from BYOL repo.'''
    square_sum = jnp.sum(jnp.square(x), axis=axis, keepdims=True)
    x_inv_norm = jax.lax.rsqrt(jnp.maximum(square_sum, epsilon))  # scaffolding: rest of the helper
    return x * x_inv_norm  # scaffolding


class _WM:  # scaffolding: stand-in for the haiku world model (apply returns predicted and target latents)
    def apply(self, params, obs, action):
        z = jnp.tanh(obs.reshape(obs.shape[:2] + (-1,)) @ params)
        return z, z


class WorldModelTrainer:
    def __init__(self):  # scaffolding
        self.wm = _WM()

    # byol_offline/models/byol_model.py before the commit
    def wm_loss_fn_window_size(self,
                               wm_params,
                               target_params,
                               obs_seq: jnp.ndarray,
                               action_seq: jnp.ndarray,
                               window_size: int) -> Tuple[jnp.ndarray, jnp.ndarray]:
        
        T, B = obs_seq.shape[:2]

        # define body function for given starting index 'idx' that goes into jax.lax.scan
        @functools.partial(jax.jit, static_argnums=1)
        def body_fn(curr_state, idx):
            curr_loss, curr_loss_window = curr_state
            # get window starting from idx onward of obs, action
            obs_window = obs_seq[idx : idx + window_size] # (ws, B, *obs_dims)
            action_window = action_seq[idx : idx + window_size] # (ws, B, action_dim)
            
            pred_latents, _ = self.wm.apply(wm_params, obs_window, action_window) # (ws, B, embed_dim)
            pred_latents = jnp.reshape(pred_latents, (-1,) + pred_latents.shape[2:])

            _, target_latents = self.wm.apply(target_params, obs_window, action_window)
            target_latents = jnp.reshape(target_latents, (-1,) + target_latents.shape[2:])
            
            # normalize latents
            latents = l2_normalize(latents)
            embeddings = l2_normalize(embeddings)

            # take L2 loss
            mses = jnp.square(pred_latents - jax.lax.stop_gradient(target_latents)) # (ws * B, embed_dim)
            mses = jnp.reshape(mses, (-1, B) + mses.shape[1:])
            loss_vec = jnp.sum(mses, -1) # (ws, B)
            new_loss_window = curr_loss_window.at[idx : idx + window_size].add(loss_vec)

            return (curr_loss + loss_vec.mean(), new_loss_window), 0 # dummy stuff here

        init_val = (0.0, jnp.zeros((T, B)))
        (total_loss, loss_window), _ = jax.lax.scan(body_fn, init_val, jnp.arange(T - window_size))
        return total_loss, loss_window


trainer = WorldModelTrainer()  # scaffolding
params = jnp.ones((12, 4)) * 0.1  # scaffolding
obs_seq = jnp.ones((6, 2, 3, 4))  # scaffolding: (T, B, *obs_dims)
action_seq = jnp.ones((6, 2, 2))  # scaffolding
try:  # scaffolding
    loss, window = trainer.wm_loss_fn_window_size(params, params, obs_seq, action_seq, 2)  # scaffolding
    print(float(loss))  # scaffolding
    _report({"jit(body_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
