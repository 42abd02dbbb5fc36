# source: https://github.com/PalmDr/dreamzero-jax/commit/a97fe760b4763948ee3db32d1a4dd7f79378db69
# expect: jit-in-loop-or-body at line 554
# runtime: COMPILES 2 CALLS 2
# why: called eagerly (as the repo's tests do), generate_scan runs jax.lax.scan over a _scan_step closure rebuilt at every call, so the scan is traced and compiled again per call (2 compiles for 2 calls).
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



from dataclasses import dataclass, field  # dreamzero.py's imports
from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax import nnx

# ---- src/dreamzero_jax/schedulers/flow_euler.py ----
"""Scan-compatible Flow Euler scheduler for DreamZero.

A minimal Euler ODE integrator for flow matching that is fully compatible
with ``jax.lax.scan``. Unlike :class:`FlowUniPCMultistepScheduler`, this
scheduler has **no mutable Python state** -- all information needed for a
step is passed explicitly via arrays, making it safe for tracing.

The denoising update is identical to :class:`FlowMatchScheduler`:

    prev_sample = sample + model_output * (sigma_next - sigma_current)

The key difference is the API: instead of looking up the timestep index
via ``jnp.argmin``, the caller passes pre-computed ``(sigma, sigma_next)``
pairs directly, enabling efficient use inside ``jax.lax.scan``.
"""

# from __future__ import annotations  # scaffolding: cannot follow the harness; Python 3.10+ evaluates these annotations fine

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class FlowEulerSchedule(NamedTuple):
    """Pre-computed schedule arrays for scan-based Euler denoising.

    All arrays have shape ``(num_steps,)`` and are indexed by step ``i``.
    """

    sigmas: jax.Array        # (num_steps,) sigma at each step
    sigmas_next: jax.Array   # (num_steps,) sigma at the *next* step (0 for last)
    timesteps: jax.Array     # (num_steps,) timestep = sigma * num_train_timesteps


def make_flow_euler_schedule(
    num_inference_steps: int,
    num_train_timesteps: int = 1000,
    shift: float = 5.0,
    sigma_max: float = 1.0,
    sigma_min: float = 0.0,
) -> FlowEulerSchedule:
    """Build a flow-matching Euler schedule.

    Produces the same sigma sequence as :class:`FlowMatchScheduler` with
    ``extra_one_step=True``, which is what DreamZero uses at inference time.

    Args:
        num_inference_steps: Number of denoising steps.
        num_train_timesteps: Total training timesteps (for timestep scaling).
        shift: Sigma shift factor.
        sigma_max: Maximum sigma (typically 1.0).
        sigma_min: Minimum sigma (typically 0.0).

    Returns:
        A :class:`FlowEulerSchedule` NamedTuple ready for ``euler_step``
        and ``jax.lax.scan``.
    """
    # Linearly spaced sigmas with one extra (then drop last), matching
    # FlowMatchScheduler(extra_one_step=True).
    sigmas_raw = np.linspace(sigma_max, sigma_min, num_inference_steps + 1)[:-1]

    # Apply shift: sigma_shifted = shift * sigma / (1 + (shift - 1) * sigma)
    sigmas_shifted = shift * sigmas_raw / (1.0 + (shift - 1.0) * sigmas_raw)

    # Next-step sigmas: shift by one, with final sigma = 0 (clean sample).
    sigmas_next = np.zeros(num_inference_steps, dtype=np.float32)
    sigmas_next[:-1] = sigmas_shifted[1:]
    # Last step goes to 0 (matching FlowMatchScheduler behaviour).

    sigmas = jnp.array(sigmas_shifted, dtype=jnp.float32)
    sigmas_next = jnp.array(sigmas_next, dtype=jnp.float32)
    timesteps = sigmas * num_train_timesteps

    return FlowEulerSchedule(
        sigmas=sigmas,
        sigmas_next=sigmas_next,
        timesteps=timesteps,
    )


def euler_step(
    model_output: jax.Array,
    sample: jax.Array,
    sigma: jax.Array,
    sigma_next: jax.Array,
) -> jax.Array:
    """Single Euler denoising step for flow matching.

    Computes::

        prev_sample = sample + model_output * (sigma_next - sigma)

    All arguments may be traced JAX values (scan-safe).

    Args:
        model_output: Predicted velocity field, same shape as ``sample``.
        sample: Current noisy sample.
        sigma: Current sigma (scalar).
        sigma_next: Next sigma (scalar), 0 for the final step.

    Returns:
        Denoised sample (same shape and dtype as ``sample``).
    """
    # Upcast to float32 for numerical stability, then cast back.
    sample_f32 = sample.astype(jnp.float32)
    output_f32 = model_output.astype(jnp.float32)
    dt = sigma_next - sigma  # negative (denoising)
    prev = sample_f32 + output_f32 * dt
    return prev.astype(sample.dtype)


# ---- scaffolding: small stand-ins for the DreamZero sub-models (T5 text encoder, CLIP image encoder, Wan VAE, causal DiT, training scheduler) ----
class WanTextEncoder(nnx.Module):  # scaffolding
    def __init__(self, vocab, dim, *, rngs, **kwargs):  # scaffolding
        self.embed = nnx.Embed(64, dim, rngs=rngs)  # scaffolding: small vocabulary
    def __call__(self, token_ids, mask=None):  # scaffolding
        return self.embed(token_ids % 64)  # scaffolding


class WanImageEncoder(nnx.Module):  # scaffolding
    def __init__(self, *, out_dim, rngs, **kwargs):  # scaffolding
        self.proj = nnx.Linear(3, out_dim, rngs=rngs)  # scaffolding
    def encode_image(self, image):  # scaffolding
        return self.proj(image.reshape(image.shape[0], -1, 3))  # scaffolding


class WanVideoVAE(nnx.Module):  # scaffolding
    def __init__(self, *, z_dim, rngs, **kwargs):  # scaffolding
        self.proj = nnx.Linear(3, z_dim, rngs=rngs)  # scaffolding
    def encode(self, video):  # scaffolding: (B, T, H, W, 3) -> (B, T, H/2, W/2, z_dim)
        return self.proj(video[:, :, ::2, ::2, :])  # scaffolding


class CausalWanDiT(nnx.Module):  # scaffolding: returns a velocity for the video latents and the actions
    def __init__(self, *, in_channels, action_dim, rngs, **kwargs):  # scaffolding
        self.w = nnx.Param(jnp.full((in_channels,), 0.1))  # scaffolding
        self.wa = nnx.Param(jnp.full((action_dim,), 0.1))  # scaffolding
    def __call__(self, x, t, context, state, embodiment_id, actions, timestep_action=None, clip_emb=None):  # scaffolding
        c = jnp.mean(context) + (0.0 if clip_emb is None else jnp.mean(clip_emb))  # scaffolding
        return x * self.w[...] + c, actions * self.wa[...] + jnp.mean(state)  # scaffolding


class FlowMatchScheduler:  # scaffolding: training-time scheduler, not used by generate
    def __init__(self, **kwargs):  # scaffolding
        pass  # scaffolding
    def set_timesteps(self, *args, **kwargs):  # scaffolding
        pass  # scaffolding

# ---- src/dreamzero_jax/models/dreamzero.py (config, output types, DreamZero up to encode_image, and generate_scan; train_step and generate cut) ----
@dataclass
class DreamZeroConfig:
    """Configuration for the DreamZero model.

    Groups all sub-model hyperparameters in one place.
    """

    # DiT
    dim: int = 1536
    in_channels: int = 16
    out_channels: int = 16
    ffn_dim: int = 8960
    freq_dim: int = 256
    num_heads: int = 12
    num_layers: int = 30
    patch_size: tuple[int, int, int] = (1, 2, 2)
    qk_norm: bool = True
    cross_attn_norm: bool = False
    use_scan: bool = False
    use_remat: bool = False

    # Text encoder
    text_vocab: int = 256384
    text_dim: int = 4096
    text_attn_dim: int = 4096
    text_ffn_dim: int = 10240
    text_num_heads: int = 64
    text_num_layers: int = 24
    text_num_buckets: int = 32

    # Image encoder
    image_size: int = 224
    image_patch_size: int = 14
    image_dim: int = 1280
    image_mlp_ratio: int = 4
    image_out_dim: int = 512
    image_num_heads: int = 16
    image_num_layers: int = 32

    # VAE
    vae_z_dim: int = 16
    vae_base_dim: int = 96

    # Action
    action_dim: int = 7
    state_dim: int = 14
    action_hidden_size: int = 1024
    num_action_per_block: int = 32
    num_state_per_block: int = 1
    num_frames_per_block: int = 1
    max_num_embodiments: int = 32
    action_horizon: int | None = None  # defaults to num_action_per_block

    # Scheduler
    scheduler_shift: float = 5.0
    num_train_timesteps: int = 1000
    num_inference_steps: int = 16
    cfg_scale: float = 5.0

    # Image-to-video
    has_image_input: bool = True

    # Precision — bf16 halves weight memory (critical for TPU HBM budgets)
    dtype: jnp.dtype = field(default_factory=lambda: jnp.float32)
    param_dtype: jnp.dtype = field(default_factory=lambda: jnp.float32)


# ---------------------------------------------------------------------------
# Output types
# ---------------------------------------------------------------------------


class TrainOutput(NamedTuple):
    """Training forward output."""

    loss: jax.Array
    dynamics_loss: jax.Array
    action_loss: jax.Array


class InferenceOutput(NamedTuple):
    """Inference output."""

    action_pred: jax.Array
    video_pred: jax.Array


# ---------------------------------------------------------------------------
# DreamZero model
# ---------------------------------------------------------------------------


class DreamZero(nnx.Module):
    """Full DreamZero model: joint video + action generation.

    Combines:

    * **Text encoder** (T5-style) for language conditioning
    * **Image encoder** (CLIP ViT) for visual conditioning
    * **Video VAE** for latent space compression
    * **CausalWanDiT** for joint video + action denoising
    * **FlowMatchScheduler** for noise schedules

    Training:
        Call :meth:`train_step` with raw video, text, actions, and state.
        Handles encoding, noise injection, DiT forward, and loss computation.

    Inference:
        Call :meth:`generate` with a conditioning frame, text prompt,
        state, and embodiment ID. Returns predicted actions and video latents.
    """

    def __init__(self, config: DreamZeroConfig, *, rngs: nnx.Rngs):
        self.config = config

        # --- Sub-models ---
        dtype = config.dtype
        param_dtype = config.param_dtype

        self.text_encoder = WanTextEncoder(
            vocab=config.text_vocab,
            dim=config.text_dim,
            dim_attn=config.text_attn_dim,
            dim_ffn=config.text_ffn_dim,
            num_heads=config.text_num_heads,
            num_layers=config.text_num_layers,
            num_buckets=config.text_num_buckets,
            shared_pos=False,
            dtype=dtype,
            param_dtype=param_dtype,
            rngs=rngs,
        )

        self.image_encoder = WanImageEncoder(
            image_size=config.image_size,
            patch_size=config.image_patch_size,
            dim=config.image_dim,
            mlp_ratio=config.image_mlp_ratio,
            out_dim=config.image_out_dim,
            num_heads=config.image_num_heads,
            num_layers=config.image_num_layers,
            activation="gelu",
            dtype=dtype,
            param_dtype=param_dtype,
            rngs=rngs,
        )

        self.vae = WanVideoVAE(
            z_dim=config.vae_z_dim,
            base_dim=config.vae_base_dim,
            dtype=dtype,
            param_dtype=param_dtype,
            rngs=rngs,
        )

        self.dit = CausalWanDiT(
            dim=config.dim,
            in_channels=config.in_channels,
            out_channels=config.out_channels,
            ffn_dim=config.ffn_dim,
            freq_dim=config.freq_dim,
            text_dim=config.text_dim,
            num_heads=config.num_heads,
            num_layers=config.num_layers,
            patch_size=config.patch_size,
            has_image_input=config.has_image_input,
            qk_norm=config.qk_norm,
            cross_attn_norm=config.cross_attn_norm,
            use_scan=config.use_scan,
            use_remat=config.use_remat,
            action_dim=config.action_dim,
            state_dim=config.state_dim,
            action_hidden_size=config.action_hidden_size,
            num_action_per_block=config.num_action_per_block,
            num_state_per_block=config.num_state_per_block,
            num_frames_per_block=config.num_frames_per_block,
            max_num_embodiments=config.max_num_embodiments,
            dtype=dtype,
            param_dtype=param_dtype,
            rngs=rngs,
        )

        # --- Scheduler ---
        self.scheduler = FlowMatchScheduler(
            shift=config.scheduler_shift,
            sigma_min=0.0,
            extra_one_step=True,
            num_train_timesteps=config.num_train_timesteps,
        )
        self.scheduler.set_timesteps(config.num_train_timesteps, training=True)

    # -----------------------------------------------------------------
    # Encoding helpers
    # -----------------------------------------------------------------

    def encode_prompt(
        self,
        token_ids: jax.Array,
        attention_mask: jax.Array | None = None,
    ) -> jax.Array:
        """Encode text tokens to embeddings.

        Args:
            token_ids: ``(B, L)`` int32 token IDs.
            attention_mask: ``(B, L)`` where 1 = attend, 0 = pad.

        Returns:
            ``(B, L, text_dim)`` text embeddings.
        """
        emb = self.text_encoder(token_ids, mask=attention_mask)
        if attention_mask is not None:
            emb = emb * attention_mask[:, :, None]
        return emb

    def encode_video(self, video: jax.Array) -> jax.Array:
        """Encode video to VAE latents.

        Args:
            video: ``(B, T, H, W, C)`` channels-last, values in ``[-1, 1]``.

        Returns:
            Latent ``(B, T', H', W', z_dim)`` channels-last.
        """
        return self.vae.encode(video)

    def encode_image(
        self,
        image: jax.Array,
    ) -> jax.Array:
        """Encode image with CLIP for cross-attention.

        Args:
            image: ``(B, H, W, 3)`` channels-last, values in ``[-1, 1]``.

        Returns:
            CLIP features ``(B, num_tokens, image_dim)``.
        """
        return self.image_encoder.encode_image(image)

    # -----------------------------------------------------------------
    # Training
    # -----------------------------------------------------------------

    def generate_scan(
        self,
        video: jax.Array,
        token_ids: jax.Array,
        state: jax.Array,
        embodiment_id: jax.Array,
        attention_mask: jax.Array | None = None,
        num_inference_steps: int | None = None,
        cfg_scale: float | None = None,
        *,
        key: jax.Array,
    ) -> InferenceOutput:
        """Generate actions and video using a scan-compiled denoising loop.

        Functionally equivalent to :meth:`generate` but uses a simple Euler
        scheduler (instead of UniPC multistep) wrapped in ``jax.lax.scan``.
        This eliminates Python dispatch overhead (~0.5 ms per step on TPU)
        and allows XLA to compile the full denoising loop as a single fused
        program.

        Trade-off: Euler is a first-order solver, so it may need more steps
        than UniPC (second-order) to reach the same quality. However, the
        per-step dispatch savings often outweigh this, especially at
        step counts >= 16.

        Args:
            video: Conditioning video ``(B, T, H, W, 3)`` in ``[-1, 1]``.
            token_ids: Text token IDs ``(B, L)`` int32.
            state: Robot state ``(B, num_blocks, state_dim)``.
            embodiment_id: ``(B,)`` int embodiment IDs.
            attention_mask: ``(B, L)`` text attention mask.
            num_inference_steps: Override number of denoising steps.
            cfg_scale: Override classifier-free guidance scale.
            key: PRNG key for noise initialization.

        Returns:
            :class:`InferenceOutput` with ``action_pred`` and ``video_pred``.
        """
        num_steps = num_inference_steps or self.config.num_inference_steps
        cfg = cfg_scale or self.config.cfg_scale
        B = video.shape[0]

        # --- Encode conditioning ---
        prompt_emb = self.encode_prompt(token_ids, attention_mask)
        latents = self.encode_video(video)
        clip_emb = self.encode_image(video[:, 0]) if self.config.has_image_input else None

        # Null prompt for unconditional branch (zeros)
        null_prompt = jnp.zeros_like(prompt_emb)

        # --- Initialize noise ---
        key_vid, key_act = jax.random.split(key)
        noisy_video = jax.random.normal(key_vid, latents.shape)

        total_actions = (
            latents.shape[1]
            // self.config.num_frames_per_block
            * (self.config.action_horizon or self.config.num_action_per_block)
        )
        noisy_actions = jax.random.normal(
            key_act, (B, total_actions, self.config.action_dim),
        )

        # --- Build scan-compatible Euler schedule ---
        sched_video = make_flow_euler_schedule(
            num_inference_steps=num_steps,
            num_train_timesteps=self.config.num_train_timesteps,
            shift=self.config.scheduler_shift,
        )
        sched_action = make_flow_euler_schedule(
            num_inference_steps=num_steps,
            num_train_timesteps=self.config.num_train_timesteps,
            shift=self.config.scheduler_shift,
        )

        # Pre-stack scan inputs: (num_steps,) arrays
        scan_xs = (
            sched_video.timesteps,       # (num_steps,) video timesteps
            sched_action.timesteps,      # (num_steps,) action timesteps
            sched_video.sigmas,          # (num_steps,) video sigma
            sched_video.sigmas_next,     # (num_steps,) video sigma_next
            sched_action.sigmas,         # (num_steps,) action sigma
            sched_action.sigmas_next,    # (num_steps,) action sigma_next
        )

        # --- Scan body ---
        def _scan_step(carry, xs):
            noisy_vid, noisy_act = carry
            (t_vid_scalar, t_act_scalar,
             sigma_vid, sigma_vid_next,
             sigma_act, sigma_act_next) = xs

            # Broadcast scalar timestep to batch
            t_video = jnp.broadcast_to(t_vid_scalar, (B,))
            t_act = jnp.broadcast_to(t_act_scalar, (B,))

            # Conditional prediction
            vid_cond, act_cond = self.dit(
                noisy_vid, t_video, prompt_emb,
                state, embodiment_id, noisy_act,
                timestep_action=t_act,
                clip_emb=clip_emb,
            )

            # Unconditional prediction (null text)
            vid_uncond, act_uncond = self.dit(
                noisy_vid, t_video, null_prompt,
                state, embodiment_id, noisy_act,
                timestep_action=t_act,
                clip_emb=clip_emb,
            )

            # Classifier-free guidance (video only, matching generate())
            vid_pred = vid_uncond + cfg * (vid_cond - vid_uncond)

            # Euler step for video
            noisy_vid_next = euler_step(vid_pred, noisy_vid, sigma_vid, sigma_vid_next)

            # Euler step for actions (no CFG, matching generate())
            noisy_act_next = euler_step(act_cond, noisy_act, sigma_act, sigma_act_next)

            return (noisy_vid_next, noisy_act_next), None

        # --- Run scan ---
        (final_video, final_actions), _ = jax.lax.scan(
            _scan_step,
            (noisy_video, noisy_actions),
            scan_xs,
        )

        return InferenceOutput(action_pred=final_actions, video_pred=final_video)

# ---- scaffolding: the two generate_scan tests of tests/test_dreamzero.py, called eagerly as the tests do ----
BATCH, IMAGE_H, IMAGE_W, TEXT_LEN = 1, 8, 8, 6  # scaffolding: small sizes (the test module's constants are larger)
def _small_config():  # scaffolding: a reduced _small_config (the sub-models are stand-ins)
    return DreamZeroConfig(dim=32, in_channels=4, out_channels=4, text_dim=16, image_out_dim=16, vae_z_dim=4, action_dim=7, state_dim=14, num_action_per_block=4, scheduler_shift=5.0, num_train_timesteps=100, num_inference_steps=4)  # scaffolding
def _make_model(cfg):  # scaffolding
    return DreamZero(cfg, rngs=nnx.Rngs(0))  # scaffolding
try:  # scaffolding
    for _test in range(2):  # scaffolding: test_dreamzero_generate_scan_output_type, then test_dreamzero_generate_scan_shape_matches
        cfg = _small_config()  # scaffolding: test body from here
        model = _make_model(cfg)  # scaffolding
        video = jax.random.uniform(jax.random.key(0), (BATCH, 5, IMAGE_H, IMAGE_W, 3), minval=-1, maxval=1)  # scaffolding
        ids = jnp.zeros((BATCH, TEXT_LEN), dtype=jnp.int32)  # scaffolding
        num_blocks = 2  # scaffolding
        state = jax.random.normal(jax.random.key(2), (BATCH, num_blocks, cfg.state_dim))  # scaffolding
        embodiment_id = jnp.array([0])  # scaffolding
        result = model.generate_scan(video, ids, state, embodiment_id, key=jax.random.key(4))  # scaffolding
        assert jnp.isfinite(result.action_pred).all()  # scaffolding
    _report({"jit(scan)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
