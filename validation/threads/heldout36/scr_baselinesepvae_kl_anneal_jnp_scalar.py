# source: https://github.com/mo-rsa24/baselineSepVAE/blob/97f678113b2770417db1c126b839905103f1766c/run/train_sep_vae.py
# expect: none
# runtime: COMPILES 2 CALLS 16
# why: The SepVAE trainer passes a per-epoch KL-annealing weight to the jitted vae_step, but wraps it in jnp.float32 (a traced scalar), uses drop_last=True and a constant Python float EMA decay, so vae_step and update_ema compile once each.

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
from types import SimpleNamespace  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np
import optax  # scaffolding
import torch  # scaffolding
from flax.training.train_state import TrainState  # scaffolding
from torch.utils.data import DataLoader, Dataset  # scaffolding: Dataset


class VinBigDataPairDataset(Dataset):  # scaffolding: stand-in (20 pairs of 8x8 images, NCHW as the real one)
    def __init__(self, n=20):
        g = np.random.default_rng(0)
        self.x = g.normal(size=(n, 2, 1, 8, 8)).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {'x_norm': torch.from_numpy(self.x[i, 0]), 'x_disease1': torch.from_numpy(self.x[i, 1]),
                'disease_labels': torch.tensor(1), 'bbox_disease1': torch.tensor([0.1, 0.1, 0.5, 0.5])}


def sepvae_loss(params, batch, key, kl_anneal):  # scaffolding: stand-in for losses/sep_vae_losses.py
    x = jnp.concatenate([batch['x_norm'], batch['x_disease1']], axis=0)
    rec = jnp.mean((x * params['w'] - x) ** 2)
    kl = jnp.sum(params['w'] ** 2)
    return rec + kl_anneal * kl, {'loss/total': rec + kl}


def main():
    args = SimpleNamespace(batch_size=8, num_workers=0, epochs=4, kl_warmup_epochs=3, ema_decay=0.999)  # scaffolding
    start_epoch = 1
    dataset = VinBigDataPairDataset()
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True,
                        num_workers=args.num_workers,
                        drop_last=True)  # scaffolding: collate_fn=jax_pair_collate_fn dropped (default collate)
    vae_state = TrainState.create(apply_fn=None, params={'w': jnp.ones((8,))}, tx=optax.adam(1e-3))  # scaffolding
    ema_params = vae_state.params
    rng = jax.random.PRNGKey(0)

    @jax.jit
    def update_ema(ema_p, params, decay):
        return jax.tree_util.tree_map(
            lambda e, p: decay * e + (1.0 - decay) * p, ema_p, params
        )

    @jax.jit
    def vae_step(vae_state_arg, batch, key, kl_anneal):  # scaffolding: the two discriminator arguments dropped
        def loss_fn(params):
            total_loss, logs = sepvae_loss(params, batch, key, kl_anneal)  # scaffolding: stand-in loss
            return total_loss, logs
        (loss, logs), grads = jax.value_and_grad(loss_fn, has_aux=True)(
            vae_state_arg.params
        )
        return vae_state_arg.apply_gradients(grads=grads), logs

    n_calls = 0  # scaffolding
    for epoch in range(start_epoch, args.epochs + 1):
        kl_anneal = jnp.float32(
            min(1.0, epoch / args.kl_warmup_epochs) if args.kl_warmup_epochs > 0 else 1.0
        )
        anneal_str = (f"  [KL anneal={float(kl_anneal):.3f}]"
                      if args.kl_warmup_epochs > 0 else "")
        print(f"\nEpoch {epoch}/{args.epochs}{anneal_str}")

        for batch_torch in loader:
            batch = {
                'x_norm':         jnp.array(batch_torch['x_norm'].permute(0, 2, 3, 1).numpy()),
                'x_disease1':     jnp.array(batch_torch['x_disease1'].permute(0, 2, 3, 1).numpy()),
                'disease_labels': jnp.array(batch_torch['disease_labels'].numpy()),
                'bbox_disease1':  jnp.array(batch_torch['bbox_disease1'].numpy()),
            }
            rng, key_disc, key_patch_disc, key_vae = jax.random.split(rng, 4)
            vae_state, logs = vae_step(
                vae_state, batch,
                key_vae, kl_anneal
            )
            n_calls += 1  # scaffolding

            if args.ema_decay > 0:
                ema_params = update_ema(ema_params, vae_state.params, args.ema_decay)
    return n_calls  # scaffolding


n_calls = main()  # scaffolding
_report({"jit(vae_step)", "jit(update_ema)"}, 2 * n_calls)  # scaffolding: both jitted functions are called n_calls times
