# source: https://github.com/p-doom/jasmine/pull/60
# expect: shape-churn at line 65
# runtime: COMPILES 4 CALLS 4
# why: the autoregressive loop feeds the sampler a video that grows by one frame per step (and latent actions sliced to frame_idx), so every frame is a new input shape and the sampler is recompiled once per generated frame.

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
import functools  # scaffolding
import types  # scaffolding

import jax
import jax.numpy as jnp

args = types.SimpleNamespace(start_frame=0, seq_len=5, maskgit_steps=3, temperature=1.0, sample_argmax=True)  # scaffolding


@functools.partial(jax.jit, static_argnums=(2, 3, 4))  # scaffolding: stand-in for Genie.sample
def sample(params, batch, maskgit_steps, temperature, sample_argmax):
    ctx = batch["videos"].mean(axis=1) + batch["latent_actions"].sum(axis=(1, 2))[:, None]

    def step(tokens, _):
        logits = tokens @ params + ctx
        return jnp.tanh(logits / temperature), None

    tokens, _ = jax.lax.scan(step, jnp.zeros_like(ctx), None, length=maskgit_steps)
    return tokens[:, None, :]


class Genie:  # scaffolding
    sample = sample


class _GenieModule:  # scaffolding: stand-in for the flax Genie module's apply
    def apply(self, params, batch, *a, method):
        return method(params, batch, *a)


genie = _GenieModule()  # scaffolding
params = jnp.eye(4) * 0.5  # scaffolding


# --- Define autoregressive sampling loop ---
def _autoreg_sample(rng, video_batch, action_batch):
    vid = video_batch[:, : args.start_frame + 1]
    for frame_idx in range(args.start_frame + 1, args.seq_len):
        # --- Sample next frame ---
        print("Frame", frame_idx)
        rng, _rng = jax.random.split(rng)
        batch = dict(videos=vid, latent_actions=action_batch[:, :frame_idx], rng=_rng)
        new_frame = genie.apply(
            params,
            batch,
            args.maskgit_steps,
            args.temperature,
            args.sample_argmax,
            method=Genie.sample,
        )
        vid = jnp.concatenate([vid, new_frame], axis=1)
    return vid


video_batch = jnp.ones((2, args.seq_len, 4))  # scaffolding
action_batch = jnp.ones((2, args.seq_len - 1, 1))  # scaffolding
vid = _autoreg_sample(jax.random.PRNGKey(0), video_batch, action_batch)
print(vid.shape)  # scaffolding
_report({"jit(sample)"}, 4)  # scaffolding
