# source: https://github.com/sudsho/jax-flax-tpu-training/blob/33f5f3e5fb4ee1ed304a3bf1cb905ea550e5a9c1/scripts/smoke_cpu.py
# expect: none
# runtime: COMPILES 2 CALLS 24
# why: The CPU smoke binds graphdef, the optax transform, the non-trainable state and Python hyper-parameters into jax.jit(partial(train_step, ...)) once, batches() drops the remainder and the evaluate() closure always feeds the same 256-image eval set, so train_step and eval_step compile once each.

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

import jax
import jax.numpy as jnp
import numpy as np
import optax  # scaffolding
from flax import nnx
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # scaffolding

IMAGE_SIZE = 32
PATCH_SIZE = 8
NUM_CLASSES = 4
BATCH_SIZE = 32
NUM_STEPS = 20  # scaffolding: 60 in the script
SEED = 0


class ViT(nnx.Module):  # scaffolding: stand-in for src/model/vit_flax.py
    def __init__(self, rngs):
        self.head = nnx.Linear(IMAGE_SIZE * IMAGE_SIZE * 3, NUM_CLASSES, rngs=rngs)

    def __call__(self, x, deterministic=True):
        return self.head(x.reshape(x.shape[0], -1))


def make_dataset(n, *, image_size=32, num_classes=4, seed=0):  # scaffolding: random images instead of drawn shapes
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, num_classes, size=n).astype(np.int32)
    return rng.random((n, image_size, image_size, 3), dtype=np.float32), labels


def batches(images, labels, batch_size, *, seed=0, shuffle=True):
    """Yield (image_batch, label_batch) numpy tuples, dropping the remainder."""
    n = images.shape[0]
    idx = np.arange(n)
    if shuffle:
        np.random.default_rng(seed).shuffle(idx)
    for start in range(0, n - batch_size + 1, batch_size):
        sel = idx[start:start + batch_size]
        yield images[sel], labels[sel]


def flatten_grads_norm(grads):
    flat = jax.tree_util.tree_leaves(grads)
    sq = sum(jnp.sum(x**2) for x in flat)
    return jnp.sqrt(sq)


def cross_entropy_with_smoothing(logits, labels, num_classes: int, smoothing: float = 0.1):
    y = jax.nn.one_hot(labels, num_classes)
    y = y * (1.0 - smoothing) + smoothing / num_classes
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.sum(y * logp, axis=-1))


def train_step(graphdef, tx, rest, params, opt_state, batch, key, *, grad_accum_steps: int, num_classes: int, smoothing: float):
    _ = key

    def _loss(p, imgs, labels):
        model = nnx.merge(graphdef, p, rest)
        logits = model(imgs, deterministic=True)
        return cross_entropy_with_smoothing(logits, labels, num_classes, smoothing)

    loss, grads = jax.value_and_grad(_loss)(params, batch["image"], batch["label"])  # (grad_accum_steps > 1 branch cut: scaffolding)
    updates, new_opt = tx.update(grads, opt_state, params)
    new_params = optax.apply_updates(params, updates)
    g_norm = flatten_grads_norm(grads)
    return new_params, new_opt, loss, g_norm


def eval_step(graphdef, rest, params, batch, num_classes: int):
    model = nnx.merge(graphdef, params, rest)
    logits = model(batch["image"], deterministic=True)
    pred = jnp.argmax(logits, axis=-1)
    acc = jnp.mean(pred == batch["label"])
    loss = cross_entropy_with_smoothing(logits, batch["label"], num_classes, 0.0)
    return loss, acc


N_CALLS = 0  # scaffolding


def main() -> int:
    global N_CALLS  # scaffolding
    mesh = Mesh(np.array(jax.devices()[:1]).reshape(1, 1), ("data", "model"))  # scaffolding: build_mesh(MeshConfig(...))
    key = jax.random.key(SEED)
    rngs = nnx.Rngs(params=key, dropout=jax.random.fold_in(key, 1))
    model = ViT(rngs)
    graphdef, params, rest = nnx.split(model, nnx.Param, ...)

    tx = optax.adamw(3e-3, weight_decay=0.02)  # scaffolding: build_optimizer(...)
    opt_state = tx.init(params)

    train_imgs, train_lbls = make_dataset(BATCH_SIZE * NUM_STEPS + 7, image_size=IMAGE_SIZE,  # scaffolding: +7 leftover images
                                          num_classes=NUM_CLASSES, seed=SEED)
    eval_imgs, eval_lbls = make_dataset(256, image_size=IMAGE_SIZE,
                                        num_classes=NUM_CLASSES, seed=1234)

    with mesh:
        rep = NamedSharding(mesh, P())  # scaffolding: replicated(mesh)
        bshard = NamedSharding(mesh, P("data"))  # scaffolding: batch_sharding(mesh)
        lbl_shard = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("data"))
        batch_shard = {"image": bshard, "label": lbl_shard}
        params = jax.tree_util.tree_map(lambda x: jax.device_put(x, rep), params)
        opt_state = jax.tree_util.tree_map(lambda x: jax.device_put(x, rep), opt_state)

        jitted_train = jax.jit(
            partial(train_step, graphdef, tx, rest, grad_accum_steps=1,
                    num_classes=NUM_CLASSES, smoothing=0.1),
            in_shardings=(rep, rep, batch_shard, None),
            out_shardings=(rep, rep, None, None),
        )
        jitted_eval = jax.jit(
            partial(eval_step, graphdef, rest, num_classes=NUM_CLASSES),
            in_shardings=(rep, batch_shard),
            out_shardings=(None, None),
        )

        def evaluate():
            global N_CALLS  # scaffolding
            N_CALLS += 1  # scaffolding
            imgs = jax.device_put(jnp.asarray(eval_imgs), bshard)
            lbls = jax.device_put(jnp.asarray(eval_lbls), lbl_shard)
            loss, acc = jitted_eval(params, {"image": imgs, "label": lbls})
            return float(loss), float(acc)

        losses = []
        data = list(batches(train_imgs, train_lbls, BATCH_SIZE, seed=SEED, shuffle=True))
        init_eval_loss, init_acc = evaluate()

        step = 0
        for imgs_np, lbls_np in data:
            imgs = jax.device_put(jnp.asarray(imgs_np), bshard)
            lbls = jax.device_put(
                jnp.asarray(lbls_np),
                jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("data")),
            )
            key, sk = jax.random.split(key)
            params, opt_state, loss, gnorm = jitted_train(
                params, opt_state, {"image": imgs, "label": lbls}, sk
            )
            N_CALLS += 1  # scaffolding
            losses.append(float(loss))
            step += 1
            if step % 15 == 0 or step == 1:
                el, acc = evaluate()

        final_loss, final_acc = evaluate()
    return 0


main()  # scaffolding
_report({"jit(train_step)", "jit(eval_step)"}, N_CALLS)
