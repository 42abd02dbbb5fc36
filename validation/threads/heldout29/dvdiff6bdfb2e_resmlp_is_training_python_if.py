# source: https://github.com/dashstander/v-diffusion-jax/commit/6bdfb2e059eee037f6d3d157000a785febcedb31
# expect: trace-time-error at line 93
# runtime: ERROR TracerBoolConversionError
# why: is_training arrives as a traced jnp.array(0) inside the jitted sample_step, so ResMLP's `self.dr_rate if is_training > 0.0 else 0.0` converts a tracer to bool and raises.
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


import haiku as hk
import jax
import jax.numpy as jnp
# from einops import repeat  # scaffolding: einops is not installed; stand-in below


def repeat(x, pattern, n):  # scaffolding: einops.repeat(x, '-> n', n=n) for a scalar x
    return jnp.broadcast_to(x, (n,))  # scaffolding


# ---- diffusion/utils.py ----
def log_snr_to_alpha_sigma(log_snr):
    """Returns the scaling factors for the clean image and for the noise, given
    the log SNR for a timestep."""
    return jnp.sqrt(jax.nn.sigmoid(log_snr)), jnp.sqrt(jax.nn.sigmoid(-log_snr))


def alpha_sigma_to_t(alpha, sigma):
    """Returns a timestep, given the scaling factors for the clean image and for
    the noise."""
    return jnp.arctan2(sigma, alpha) / jnp.pi * 2


def get_ddpm_schedule(ddpm_t):
    """Returns timesteps for the noise schedule from the DDPM paper."""
    log_snr = -jnp.log(jnp.expm1(1e-4 + 10 * ddpm_t**2))
    alpha, sigma = log_snr_to_alpha_sigma(log_snr)
    return alpha_sigma_to_t(alpha, sigma)


def get_sampling_schedule(steps):
    t = jnp.linspace(1, 0, steps + 1)
    last_val = jnp.mean(t[-2:])
    t.at[-1].set(last_val)
    log_snrs = get_ddpm_schedule(t)
    return log_snrs


# ---- diffusion/models/clip_latent.py ----
class ResLayer(hk.Module):
    
    def __init__(self, input_size, mid_size, dr_rate, name=None):
        super().__init__(name)
        self.l1 = hk.Linear(mid_size)
        self.l2 = hk.Linear(input_size)
        self.dr_rate = dr_rate
    
    def __call__(self, x, is_training):
        dr = self.dr_rate if is_training > 0.0 else 0.0
        x1 = self.l1(x)
        x1 = jax.nn.relu(x1)
        x1 = hk.dropout(hk.next_rng_key(), dr, x1)
        x1 = self.l2(x1)
        return jax.nn.relu(x1) + x
        


class ResMLP(hk.Module):
    def __init__(self, num_layers, input_size, mid_size, dr_rate, name=None):
        super().__init__(name)
        self.num_layers = num_layers
        self.input_size = input_size
        self.mid_size = mid_size
        self.dr_rate = dr_rate

    def __call__(self, x, is_training):
        dr = self.dr_rate if is_training > 0.0 else 0.0
        x_init = x
        for _ in range(self.num_layers):
            x = ResLayer(self.input_size, self.mid_size, dr)(x, is_training)
        return x + x_init


def diffusion_model(x, t, y, extra_args, is_training):  # scaffolding: the repo's DiffusionImage/DiffusionLatent need clip_jax; only their ResMLP embedding branch is kept
    y_1 = ResMLP(2, 512, 512, 0.1)(y, is_training)  # scaffolding: as in diffusion_image_model
    v_im = x * 0.5 + hk.Linear(x.shape[1])(y_1)[:, :, None, None]  # scaffolding
    v_emb = hk.Linear(512)(y_1)  # scaffolding
    return v_im, v_emb  # scaffolding


# ---- tests/test_model.py ----
def make_sample_fn(model):
    def sample_step(params, key, x_t, y_t, log_snr, log_snr_next, eta, extra_args):
        keys = jax.random.split(key, num=3)
        v_im, v_lat = model.apply(
            params,
            keys[0],
            x_t,
            repeat(log_snr, '-> n', n=x_t.shape[0]),
            y_t,
            extra_args,
            jnp.array(0)
        )
        alpha, sigma = log_snr_to_alpha_sigma(log_snr)
        alpha_next, sigma_next = log_snr_to_alpha_sigma(log_snr_next)
        pred_im = x_t * alpha - v_im * sigma
        eps_im = x_t * sigma + v_im * alpha
        pred_lat = y_t * alpha - v_lat * sigma
        eps_lat = y_t * sigma - v_lat * alpha
        ddim_sigma = eta * jnp.sqrt(sigma_next**2 / sigma**2) * jnp.sqrt(1 - alpha**2 / alpha_next**2)
        adjusted_sigma = jnp.sqrt(sigma_next**2 - ddim_sigma**2)
        x_t = pred_im * alpha_next + eps_im * adjusted_sigma + jax.random.normal(keys[1], x_t.shape) * ddim_sigma
        y_t = pred_lat * alpha_next + eps_lat * adjusted_sigma + jax.random.normal(keys[2], y_t.shape) * ddim_sigma
        return x_t, y_t, pred_im

    def sample(params, key, x_t, y_t, steps, eta, extra_args):
        log_snrs = get_sampling_schedule(steps)
        sample_fn = jax.jit(sample_step)
        for i in range(steps-1):
            key, subkey = jax.random.split(key)
            x_t, y_t, pred = sample_fn(
                params,
                subkey,
                x_t,
                y_t,
                log_snrs[i],
                log_snrs[i + 1],
                eta,
                extra_args
            )
        return pred

    return sample


def test_sample():
    shape = (3, 8, 8)  # scaffolding: the test's (3, 256, 256), smaller
    seed = 42
    key = jax.random.PRNGKey(seed)
    key, subkey = jax.random.split(key)

    model = hk.transform(diffusion_model)
    params = model.init(
        subkey,
        jnp.zeros([1, *shape]),
        jnp.zeros([1]),
        jnp.zeros([1, 512]),
        {},
        jnp.array(0)
    )
    keys = jax.random.split(key, num=3)
    do_sample = make_sample_fn(model)
    fake_image = jax.random.normal(keys[0], [3, 3, 8, 8])  # scaffolding: [3, 3, 256, 256] in the test
    fake_embed = jax.random.normal(keys[1], [3, 512])
    do_sample(params, keys[2], fake_image, fake_embed, 6, 2, {})  # scaffolding: 6 steps instead of 100


try:  # scaffolding
    test_sample()  # scaffolding
    _report({"jit(sample_step)"}, 5)  # scaffolding: steps-1 = 5 calls
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
