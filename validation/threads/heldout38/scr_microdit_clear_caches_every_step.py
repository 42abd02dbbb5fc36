# source: https://github.com/kelechi-c/microdit_jax/blob/415be9ffe4ebf0c056134fa602144252a4479b4e/trainer.py
# expect: jit-in-loop-or-body at line 113
# runtime: COMPILES 4 CALLS 4
# why: overfit() calls jax.clear_caches() after every train_step, throwing away the compiled nnx.jit executable, so the same-shaped step is re-traced and recompiled on every epoch.

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
from functools import partial
import gc
import jax, optax
from jax import Array, numpy as jnp, random as jrand
from jax.sharding import NamedSharding as NS, Mesh, PartitionSpec as PS
from jax.experimental import mesh_utils
from flax import nnx


class config:
    batch_size = 128
    img_size = 32
    seed = 33
    patch_size = (2, 2)
    lr = 3e-4
    mask_ratio = 0.50
    epochs = 30
    data_split = 10_000  # data split to train on
    cfg_scale = 2.0
    vaescale_factor = 0.13025


rkey = jrand.key(config.seed)
randkey = jrand.key(config.seed)
rngs = nnx.Rngs(config.seed)

num_devices = jax.device_count()
mesh_devices = mesh_utils.create_device_mesh((num_devices,))
mesh = Mesh(mesh_devices, axis_names=("data"))
data_sharding = NS(mesh, PS("data"))
rep_sharding = NS(mesh, PS())


class RectFlowWrapper(nnx.Module):  # scaffolding: stand-in for m2.RectFlowWrapper(MicroDiT)
    def __init__(self, rngs):  # scaffolding
        self.proj = nnx.Linear(4, 4, rngs=rngs)  # scaffolding
        self.txt = nnx.Linear(8, 4, rngs=rngs)  # scaffolding

    def __call__(self, x, label):  # scaffolding
        y = self.proj(x.astype(jnp.float32)) + self.txt(label.astype(jnp.float32))[:, None, None, :]  # scaffolding
        return jnp.mean(y ** 2)  # scaffolding


@partial(
    nnx.jit,
    in_shardings=(rep_sharding, rep_sharding, data_sharding, data_sharding),
    out_shardings=(None, None),
)
def train_step(model, optimizer, image, text):

    def loss_func(model, img_latents, label):
        img_latents = (
            jnp.transpose(img_latents, (0, 2, 3, 1)) * config.vaescale_factor  # einops.rearrange(img_latents, "b c h w -> b h w c") in the repo
        )
        loss = model(img_latents, label)

        return loss

    gradfn = nnx.value_and_grad(loss_func)
    loss, grads = gradfn(model, image, text)

    grad_norm = optax.global_norm(grads)

    optimizer.update(model, grads)  # flax 0.12 API: optimizer.update(model, grads); the repo calls optimizer.update(grads)

    return loss, grad_norm


def overfit(epochs, model, optimizer, train_loader, schedule):
    train_loss = 0.0
    model.train()

    batch = next(iter(train_loader))

    print("start overfitting.../")
    for epoch in range(epochs):
        lr = schedule(epoch)

        latent, text_embed = batch["vae_latent"], batch["text_embedding"]
        train_loss, grad_norm = train_step(model, optimizer, latent, text_embed)
        print(
            f"step {epoch}, loss-> {train_loss.item():.4f}, grad_norm {grad_norm.item()}"
        )

        jax.clear_caches()
        gc.collect()

    return model, train_loss


train_loader = [{  # scaffolding: one stand-in batch instead of ShapeBatchingDataset (streamed HF dataset)
    "vae_latent": jnp.ones((8, 4, 4, 4), dtype=jnp.bfloat16),  # scaffolding
    "text_embedding": jnp.ones((8, 8), dtype=jnp.bfloat16),  # scaffolding
}]  # scaffolding
rf_engine = RectFlowWrapper(rngs)  # scaffolding
schedule = optax.polynomial_schedule(
    init_value=3e-4, end_value=1e-5, power=1, transition_steps=5000,
)
optimizer = nnx.Optimizer(
    rf_engine,
    optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.adamw(schedule, b1=0.9, b2=0.995, eps=1e-9, weight_decay=0.001),
    ),
    wrt=nnx.Param,  # flax 0.12 API
)
model, loss = overfit(4, rf_engine, optimizer, train_loader, schedule)  # scaffolding: 4 epochs instead of 5 + wandb
_report({"jit(train_step)"}, 4)  # scaffolding
