# source: https://github.com/stevenygd/jax-diffusion/blob/43ef0465df2348200ef295924d41f6a0eba62589/eval.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: sample_latents is decorated with @jax.jit inside main and pmapped, but both happen once; the pmapped function is reused for every checkpoint and sampling iteration, so it compiles once.

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
# eval.py of stevenygd/jax-diffusion at 43ef046 (sampling path; hydra, wandb, orbax, the DiT model, the VAE and ADM evaluation replaced)
import os
import types  # scaffolding
import jax
import numpy as np
import flax
import flax.jax_utils
import jax.numpy as jnp
from functools import partial


# --- scaffolding: stand-ins for the DiT model, create_diffusion, the EMA state and the checkpoint manager ---
def _apply_fn(params, x, t, y=None, training=False, rngs=None, method=None, cfg_scale=None):  # scaffolding
    return x * params["w"] + t[:, None, None, None] * 0.0  # scaffolding


class _Diffusion:  # scaffolding
    def __init__(self, num_steps):  # scaffolding
        self.num_steps = num_steps  # scaffolding

    def p_sample_loop(self, rng, model, shape, noise=None, clip_denoised=False, model_kwargs=None, progress=False):  # scaffolding
        x = noise  # scaffolding
        for i in reversed(range(self.num_steps)):  # scaffolding
            t = jnp.full((shape[0],), i, dtype=jnp.float32)  # scaffolding
            x = x - 0.1 * model(x, t, **model_kwargs)  # scaffolding
        return x  # scaffolding

    ddim_sample_loop = p_sample_loop  # scaffolding


def create_diffusion(timestep_respacing):  # scaffolding
    return _Diffusion(int(timestep_respacing))  # scaffolding


_NS = types.SimpleNamespace  # scaffolding
args = _NS(global_seed=0, num_classes=10, use_latent=False, image_size=8, latent_dim=4,  # scaffolding
           inference=_NS(num_sampling_steps=4, cfg_scale=1.0, per_proc_batch_size=2, name="ddpm", num_fid_samples=4))  # scaffolding
ema_state = _NS(train_state=_NS(apply_fn=_apply_fn))  # scaffolding
_CKPTS = {s: {"state": _NS(ema_params={"w": jnp.float32(0.5 + s / 10)}), "step": s} for s in (100, 200)}  # scaffolding
_N_CALLS = []  # scaffolding
# --- end scaffolding ---


def sample_checkpoint(args, rng, ema_state, checkpoint_manager, ckpt_step, 
                      p_sample_latents, flops_per_iter=None, flops_unit_name=None):
    ckpt = checkpoint_manager[ckpt_step]  # scaffolding: checkpoint_manager.restore(ckpt_step, ...)
    train_step = int(ckpt['step'])
    params = ckpt["state"].ema_params
    if not isinstance(params, flax.core.FrozenDict):
        params = flax.core.FrozenDict(params)
    params = flax.jax_utils.replicate(params)

    total_devices = jax.device_count() 
    num_exist_imgs = 0  # scaffolding: len(glob.glob(...)) of existing .png samples
    sample_per_iter = total_devices*args.inference.per_proc_batch_size
    total_iter = int(np.ceil(args.inference.num_fid_samples / sample_per_iter))
    done_iter = num_exist_imgs // sample_per_iter

    for i in range(done_iter, total_iter):
        rng_i = jax.random.fold_in(rng, i)
        rng_i = jax.random.split(rng_i, jax.local_device_count())
        samples = p_sample_latents(rng_i, params)
        _N_CALLS.append(1)  # scaffolding
        samples = np.array(samples)
        samples = samples.reshape(-1, *samples.shape[-3:])
    return {"ckpt_step": ckpt_step}  # scaffolding: FID metrics cut


def main(args):
    """Run sampling. """
    rng = jax.random.PRNGKey(args.global_seed)
    rng = jax.random.fold_in(rng, jax.process_index())
    resume_steps = sorted(_CKPTS, reverse=True)  # scaffolding: the checkpoint folder listing

    use_latent = args.use_latent  # scaffolding: args.get("use_latent", True)
    if hasattr(args, "image_size"): latent_size = args.image_size // 8 if use_latent else args.image_size
    else: _, _, _, latent_size, _ = args["data_shape"]["x"]

    if hasattr(args, "latent_dim"): latent_dim = args.latent_dim
    else: _, _, latent_dim, _, _ = args["data_shape"]["x"]

    diffusion = create_diffusion(timestep_respacing=str(args.inference.num_sampling_steps))

    assert args.inference.cfg_scale >= 1.0, "In almost all cases, cfg_scale be >= 1.0"
    using_cfg = args.inference.cfg_scale > 1.0
    
    # Setup function 
    @jax.jit 
    def sample_latents(rng, params):
        rng = jax.random.fold_in(rng, jax.process_index())
        
        # Sample inputs:
        n = args.inference.per_proc_batch_size
        rng, spl1, spl2 = jax.random.split(rng, 3)
        z = jax.random.normal(
            spl1, shape=(n, latent_dim, latent_size, latent_size))
        y = jax.random.randint(
            spl2, minval=0, maxval=args.num_classes, shape=(n,))
        if using_cfg:
            z = jnp.concat([z, z], axis=0)
            y_null = jnp.array([1000] * n)
            y = jnp.concat([y, y_null], axis=0)
            rng, spl, spl2, spl3 = jax.random.split(rng, 4)
            model_kwargs = dict(
                y=y, cfg_scale=args.inference.cfg_scale, training=False,
                # For MTTT, still needs dropout + mt3
                rngs={"dropout": spl, "mt3": spl2, "label_emb": spl3} 
            )
            sample_fn = partial(
                ema_state.train_state.apply_fn, 
                params, method="forward_with_cfg"
            )
        else:
            rng, spl, spl2, spl3 = jax.random.split(rng, 4)
            model_kwargs = dict(
                y=y, training=False,
                rngs={"dropout": spl, "mt3": spl2, "label_emb": spl3})
            sample_fn = partial(
                ema_state.train_state.apply_fn, 
                params 
            )

        if args.inference.name == "ddim":
            samples = diffusion.ddim_sample_loop(
                rng, sample_fn, z.shape, 
                noise=z, 
                clip_denoised=False, 
                model_kwargs=model_kwargs, progress=False)
        else:
            samples = diffusion.p_sample_loop(
                rng, sample_fn, z.shape, 
                noise=z, 
                clip_denoised=False, 
                model_kwargs=model_kwargs, progress=False)
                
        if using_cfg:
            samples, _ = jnp.split(samples, 2, axis=0)

        # Samples will be between [-1, 1]
        samples = jnp.clip(
            255 * (samples + 1.) * 0.5, min=0, max=255
        ).transpose((0, 2, 3, 1))
            
        return samples
    p_sample_latents = jax.pmap(sample_latents, axis_name="i")

    checkpoint_manager = _CKPTS  # scaffolding: orbax CheckpointManager

    for ckpt_step in resume_steps:
        print("Processing ", ckpt_step)
            
        rngi = jax.random.fold_in(rng, ckpt_step)
        metrics = sample_checkpoint(
            args=args, rng=rngi, 
            ema_state=ema_state,
            checkpoint_manager=checkpoint_manager, 
            ckpt_step=ckpt_step,
            p_sample_latents=p_sample_latents,
        )


if __name__ == "__main__":
    main(args)
    _report({"jit(_fun)"}, len(_N_CALLS))  # scaffolding: jax 0.10 reports the pmap compile as jit(_fun)
