# source: https://github.com/p-doom/jasmine/pull/60
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: after the PR the whole autoregressive rollout runs inside one jitted sampling function on a video buffer padded to seq_len (future frames masked), so the tensor shapes stay the same across timesteps and sampling compiles once.

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
import types  # scaffolding

import jax
import jax.numpy as jnp

args = types.SimpleNamespace(start_frame=0, seq_len=5, maskgit_steps=3, temperature=1.0, sample_argmax=True)  # scaffolding


class _Genie:  # scaffolding: stand-in for the flax Genie module after the PR
    def __init__(self, params):
        self.params = params

    def sample(self, batch, seq_len, maskgit_steps, temperature, sample_argmax):
        vid = batch["videos"]
        b, t0, h = vid.shape
        buf = jnp.zeros((b, seq_len, h)).at[:, :t0].set(vid)

        def frame_step(t, buf):
            mask = (jnp.arange(seq_len) < t)[None, :, None]
            ctx = (buf * mask).sum(axis=1) / t + (batch["latent_actions"][:, :, 0] * mask[:, 1:, 0]).sum(axis=1)[:, None]

            def step(tokens, _):
                return jnp.tanh((tokens @ self.params + ctx) / temperature), None

            tokens, _ = jax.lax.scan(step, jnp.zeros_like(ctx), None, length=maskgit_steps)
            return buf.at[:, t].set(tokens)

        return jax.lax.fori_loop(t0, seq_len, frame_step, buf)


class nn:  # scaffolding: stand-in for flax.linen.apply
    @staticmethod
    def apply(fn, module):
        def apply_fn(params, batch):
            return fn(_Genie(params), batch)
        return apply_fn


genie = None  # scaffolding: the module definition is bound by nn.apply
params = jnp.eye(4) * 0.5  # scaffolding


def _sampling_wrapper(module, batch):
    return module.sample(batch, args.seq_len, args.maskgit_steps, args.temperature, args.sample_argmax)

# --- Define autoregressive sampling loop ---
def _autoreg_sample(rng, video_batch, action_batch):
    vid = video_batch[:, : args.start_frame + 1]
    sampling_fn = jax.jit(nn.apply(_sampling_wrapper, genie))
    rng, _rng = jax.random.split(rng)
    batch = dict(videos=vid, latent_actions=action_batch, rng=_rng)
    generated_vid = sampling_fn(
        params,
        batch
    )
    return generated_vid


video_batch = jnp.ones((2, args.seq_len, 4))  # scaffolding
action_batch = jnp.ones((2, args.seq_len - 1, 1))  # scaffolding
vid = _autoreg_sample(jax.random.PRNGKey(0), video_batch, action_batch)
print(vid.shape)  # scaffolding
_report({"jit(apply_fn)"}, 1)  # scaffolding
