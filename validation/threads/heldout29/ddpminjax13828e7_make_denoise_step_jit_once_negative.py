# source: https://github.com/RomainHautier/ddpm-in-jax/commit/13828e75890b358848e8323a8a2d1f2f10c3d6c8
# expect: none
# runtime: COMPILES 1 CALLS 23
# why: the @jax.jit denoise step is created once by make_denoise_step in main and reused by every reconstruction and sampling loop, so it compiles once for 23 calls.
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


import jax
import jax.numpy as jnp
from flax import linen as nn
from tqdm import tqdm


# ---- train_ddpm.py (commit 13828e7): model and diffusion helpers ----
# ── Model ───────────────────────────────────────────────────────────────────

def sinusoidal_time_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = jnp.exp(-jnp.log(max_period) * jnp.arange(half) / half)
    args = t[:, None] * freqs[None, :]
    return jnp.concatenate([jnp.sin(args), jnp.cos(args)], axis=-1)


class DDPMResnet(nn.Module):
    filters: int = 160
    dropout_p: float = 0.5

    @nn.compact
    def __call__(self, x, time_embed, train=True):
        residual = x
        h = nn.GroupNorm(8)(x)
        h = jax.nn.silu(h)
        h = nn.Conv(features=self.filters, kernel_size=(3, 3), padding='CIRCULAR')(h)
        t = nn.Dense(self.filters)(jax.nn.silu(time_embed))
        h = h + t[:, None, None, :]
        h = nn.GroupNorm(8)(h)
        h = jax.nn.silu(h)
        h = nn.Dropout(rate=self.dropout_p)(h, deterministic=not train)
        h = nn.Conv(features=self.filters, kernel_size=(3, 3), padding='CIRCULAR')(h)
        if x.shape[-1] != self.filters:
            residual = nn.Conv(self.filters, (1, 1), padding='CIRCULAR')(residual)
        return h + residual


class SelfAttention(nn.Module):
    num_groups: int = 32

    @nn.compact
    def __call__(self, x):
        B, H, W, C = x.shape
        h = nn.GroupNorm(self.num_groups)(x)
        h_flat = h.reshape(B, H * W, C)
        q = nn.Dense(C)(h_flat)
        k = nn.Dense(C)(h_flat)
        v = nn.Dense(C)(h_flat)
        scaling = jnp.sqrt(C)
        attn = jax.nn.softmax(q @ k.transpose(0, 2, 1) / scaling, axis=-1)
        out = attn @ v
        out = nn.Dense(C)(out)
        out = out.reshape(B, H, W, C)
        return out + x


class Unet(nn.Module):
    ch: int = 64
    ch_mult: tuple = (1, 1, 1, 2)
    out_ch: int = 3
    in_ch: int = 3
    n_resnet_blocks: int = 1
    dropout_p: float = 0.0
    freq_dim: int = 128

    @nn.compact
    def __call__(self, x, t, train=True):
        ch = self.ch
        temp_ch = ch * 4

        time_embed = sinusoidal_time_embedding(t, dim=self.freq_dim)
        time_embed = nn.Dense(temp_ch)(time_embed)
        time_embed = jax.nn.silu(time_embed)
        time_embed = nn.Dense(temp_ch)(time_embed)

        h = nn.Conv(ch, kernel_size=(3, 3), padding='CIRCULAR')(x)
        hs = [h]

        for _ in range(self.n_resnet_blocks):
            h = DDPMResnet(ch * self.ch_mult[0], self.dropout_p)(h, time_embed=time_embed, train=train)
            hs.append(h)

        h = nn.Conv(ch * self.ch_mult[0], kernel_size=(3, 3), strides=(2, 2), padding=((0, 1), (0, 1)))(h)
        hs.append(h)

        for _ in range(self.n_resnet_blocks):
            h = DDPMResnet(ch * self.ch_mult[1], self.dropout_p)(h, time_embed=time_embed, train=train)
            hs.append(h)

        h = nn.Conv(ch * self.ch_mult[1], kernel_size=(3, 3), strides=(2, 2), padding=((0, 1), (0, 1)))(h)
        hs.append(h)

        for _ in range(self.n_resnet_blocks):
            h = DDPMResnet(ch * self.ch_mult[2], self.dropout_p)(h, time_embed=time_embed, train=train)
            hs.append(h)

        h = nn.Conv(ch * self.ch_mult[2], kernel_size=(3, 3), strides=(2, 2), padding=((0, 1), (0, 1)))(h)
        hs.append(h)

        for _ in range(self.n_resnet_blocks):
            h = DDPMResnet(ch * self.ch_mult[3], self.dropout_p)(h, time_embed=time_embed, train=train)
            hs.append(h)

        # bottleneck
        h = DDPMResnet(ch * self.ch_mult[-1], self.dropout_p)(h, time_embed=time_embed, train=train)
        h = SelfAttention(num_groups=8)(h)
        h = DDPMResnet(ch * self.ch_mult[-1], self.dropout_p)(h, time_embed=time_embed, train=train)

        # decoder
        for _ in range(self.n_resnet_blocks + 1):
            h = DDPMResnet(ch * self.ch_mult[3], self.dropout_p)(
                jnp.concatenate([h, hs.pop()], axis=-1), time_embed=time_embed, train=train)
        B, H, W, C = h.shape
        h = jax.image.resize(h, (B, H * 2, W * 2, C), method='nearest')
        h = nn.Conv(ch * self.ch_mult[3], kernel_size=(3, 3), padding='CIRCULAR')(h)

        for _ in range(self.n_resnet_blocks + 1):
            h = DDPMResnet(ch * self.ch_mult[2], self.dropout_p)(
                jnp.concatenate([h, hs.pop()], axis=-1), time_embed=time_embed, train=train)
        B, H, W, C = h.shape
        h = jax.image.resize(h, (B, H * 2, W * 2, C), method='nearest')
        h = nn.Conv(ch * self.ch_mult[2], kernel_size=(3, 3), padding='CIRCULAR')(h)

        for _ in range(self.n_resnet_blocks + 1):
            h = DDPMResnet(ch * self.ch_mult[1], self.dropout_p)(
                jnp.concatenate([h, hs.pop()], axis=-1), time_embed=time_embed, train=train)
        B, H, W, C = h.shape
        h = jax.image.resize(h, (B, H * 2, W * 2, C), method='nearest')
        h = nn.Conv(ch * self.ch_mult[1], kernel_size=(3, 3), padding='CIRCULAR')(h)

        for _ in range(self.n_resnet_blocks + 1):
            h = DDPMResnet(ch * self.ch_mult[0], self.dropout_p)(
                jnp.concatenate([h, hs.pop()], axis=-1), time_embed=time_embed, train=train)

        h = nn.GroupNorm(8)(h)
        h = jax.nn.silu(h)
        return nn.Conv(self.out_ch, kernel_size=(3, 3), padding='CIRCULAR')(h)


# ── Diffusion helpers ───────────────────────────────────────────────────────

def calc_alpha(beta):
    return jnp.cumprod(1 - beta)


def forward_process(ims, t, alpha, eps):
    return (jnp.sqrt(alpha[t])[:, None, None, None] * ims
            + jnp.sqrt(1 - alpha[t])[:, None, None, None] * eps)


# ---- generate_and_eval.py (commit 13828e7) ----
# ── JIT'd single denoise step ────────────────────────────────────────────

def make_denoise_step(model):
    """Create a JIT-compiled single denoising step.

    Compiles once, then every subsequent call is fast.
    """
    @jax.jit
    def _denoise_step(params, x_t, t_batch, alpha, alpha_bar, beta, key):
        eps_pred = model.apply({'params': params}, x_t, t_batch, train=False)

        # All samples in the batch share the same t, so index with t_batch[0]
        t_val = t_batch[0]
        alpha_t = alpha[t_val]
        alpha_bar_t = alpha_bar[t_val]
        beta_t = beta[t_val]

        coef1 = 1.0 / jnp.sqrt(alpha_t)
        coef2 = beta_t / jnp.sqrt(1.0 - alpha_bar_t)
        mean = coef1 * (x_t - coef2 * eps_pred)

        z = jax.random.normal(key, x_t.shape)
        sigma = jnp.sqrt(beta_t)
        # If t > 0 add noise, else just return mean
        x_next = jnp.where(t_val > 0, mean + sigma * z, mean)
        return x_next

    return _denoise_step


# ── Reverse diffusion (sampling) ──────────────────────────────────────────

def ddpm_sample(denoise_step, params, shape, T, beta_schedule, key):
    """Algorithm 2: Sampling. x_T ~ N(0,I), denoise to x_0."""
    alpha = 1 - beta_schedule
    alpha_bar = jnp.cumprod(alpha)

    key, subkey = jax.random.split(key)
    x_t = jax.random.normal(subkey, shape)

    for t_val in tqdm(range(T - 1, -1, -1), desc="Sampling"):
        t_batch = jnp.full((shape[0],), t_val, dtype=jnp.int32)
        key, subkey = jax.random.split(key)
        x_t = denoise_step(params, x_t, t_batch, alpha, alpha_bar,
                           beta_schedule, subkey)

    return x_t


def reconstruct(denoise_step, params, x_0, t_noise, beta_schedule, key,
                show_progress=True):
    """Noise x_0 to timestep t_noise, then denoise back to x_0."""
    alpha = 1 - beta_schedule
    alpha_bar = jnp.cumprod(alpha)

    key, subkey = jax.random.split(key)
    eps = jax.random.normal(subkey, x_0.shape)
    t = jnp.full((x_0.shape[0],), t_noise, dtype=jnp.int32)
    x_t = forward_process(x_0, t, alpha_bar, eps)

    iterator = range(t_noise, -1, -1)
    if show_progress:
        iterator = tqdm(iterator, desc=f"Denoise t={t_noise}", leave=False)

    for t_val in iterator:
        t_batch = jnp.full((x_0.shape[0],), t_val, dtype=jnp.int32)
        key, subkey = jax.random.split(key)
        x_t = denoise_step(params, x_t, t_batch, alpha, alpha_bar,
                           beta_schedule, subkey)

    return x_t


# ---- scaffolding: main()'s order of calls with a tiny Unet and random data instead of the GCS checkpoint and Kolmogorov-flow fields ----
T = 6  # scaffolding: --T 1000 in the script
beta_schedule = jnp.linspace(0.0001, 0.02, T)
model = Unet(ch=8, ch_mult=(1, 1, 1, 2), dropout_p=0.0)  # scaffolding: ch=64 in the script
_key = jax.random.PRNGKey(0)  # scaffolding
params = model.init({"params": _key, "dropout": _key}, jnp.ones((1, 16, 16, 3)), jnp.ones((1,), dtype=jnp.int32))["params"]  # scaffolding: load_params() reads a GCS checkpoint

try:  # scaffolding
    # ── Create JIT'd denoise step (compiled once, reused everywhere) ──
    denoise_step = make_denoise_step(model)
    print("Warming up JIT (first denoise call)...")
    _warmup_x = jnp.ones((1, 16, 16, 3))  # scaffolding: (1, 256, 256, 3) in the script
    _warmup_t = jnp.ones((1,), dtype=jnp.int32)
    _warmup_key = jax.random.PRNGKey(0)
    _alpha = 1 - beta_schedule
    _alpha_bar = jnp.cumprod(_alpha)
    _ = denoise_step(params, _warmup_x, _warmup_t, _alpha, _alpha_bar,
                     beta_schedule, _warmup_key)
    print("JIT warmup done.")
    calls = 1  # scaffolding
    samples = jax.random.normal(jax.random.PRNGKey(1), (3, 16, 16, 3))  # scaffolding: test fields
    key = jax.random.PRNGKey(2)  # scaffolding
    for idx in range(2):  # scaffolding: the loops of plot_reconstruction_grid (rows = samples, cols = t_noise)
        x_0 = jnp.array(samples[idx:idx + 1])  # scaffolding: as in plot_reconstruction_grid
        for t_noise in [2, 4]:  # scaffolding: --t_noise 50 100 ... in the script
            key, k_recon = jax.random.split(key)  # scaffolding
            recon = reconstruct(denoise_step, params, x_0, t_noise, beta_schedule, k_recon)  # scaffolding
            calls += t_noise + 1  # scaffolding
    key, subkey = jax.random.split(key)  # scaffolding
    generated = ddpm_sample(denoise_step, params, (1, 16, 16, 3), T, beta_schedule, subkey)  # scaffolding: --n_gen 1
    calls += T  # scaffolding
    _report({"jit(_denoise_step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
