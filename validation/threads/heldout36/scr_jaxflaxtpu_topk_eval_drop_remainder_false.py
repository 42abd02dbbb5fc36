# source: https://github.com/sudsho/jax-flax-tpu-training/blob/33f5f3e5fb4ee1ed304a3bf1cb905ea550e5a9c1/src/eval/topk_eval.py
# expect: shape-churn at line 98
# runtime: COMPILES 2 CALLS 31
# why: evaluate() batches the 3925-image Imagenette validation split by 128 with drop_remainder=False, so the last batch has 85 images and the jitted _eval_batch compiles a second time.

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
from typing import Callable, Iterator

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

IMAGENETTE_NUM_CLASSES = 10
IMAGENETTE_VAL_SIZE = 3925


def load_imagenette(split: str, *, data_dir=None, preprocess_fn=None, batch_size: int = 256,  # scaffolding: numpy stand-in
                    shuffle: bool = True, seed: int = 0, drop_remainder: bool = True):  # for the tfds/tf.data pipeline, same batching
    n = IMAGENETTE_VAL_SIZE
    g = np.random.default_rng(seed)
    images = g.random((n, 8, 8, 3), dtype=np.float32)  # scaffolding: 8x8 images instead of 224x224
    labels = g.integers(0, IMAGENETTE_NUM_CLASSES, n).astype(np.int32)
    stop = n - n % batch_size if drop_remainder else n
    return [(images[i:i + batch_size], labels[i:i + batch_size]) for i in range(0, stop, batch_size)]


def as_numpy_iterator(ds) -> Iterator[tuple[np.ndarray, np.ndarray]]:  # scaffolding
    yield from ds


class TinyViT(nnx.Module):  # scaffolding: stand-in for src/model/vit_flax.py
    def __init__(self, rngs):
        self.head = nnx.Linear(8 * 8 * 3, IMAGENETTE_NUM_CLASSES, rngs=rngs)

    def __call__(self, x, deterministic=True):
        return self.head(x.reshape(x.shape[0], -1))


def topk_accuracy(logits: jax.Array, labels: jax.Array, k: int) -> jax.Array:
    top = jax.lax.top_k(logits, k)[1]
    match = jnp.any(top == labels[:, None], axis=-1)
    return jnp.mean(match.astype(jnp.float32))


@partial(jax.jit, static_argnums=(0,))
def _eval_batch(graphdef, state, images, labels):
    model = nnx.merge(graphdef, state)
    logits = model(images, deterministic=True)
    return topk_accuracy(logits, labels, 1), topk_accuracy(logits, labels, 5)


N_CALLS = 0  # scaffolding


def evaluate(
    graphdef,
    state,
    *,
    batch_size: int = 128,
    data_dir: str | None = None,
    num_classes: int = IMAGENETTE_NUM_CLASSES,
) -> dict:
    global N_CALLS  # scaffolding
    ds = load_imagenette(
        "validation",
        data_dir=data_dir,
        preprocess_fn=None,  # scaffolding: val_preprocess()
        batch_size=batch_size,
        shuffle=False,
        drop_remainder=False,
    )
    top1s, top5s, n = 0.0, 0.0, 0
    for imgs, labels in as_numpy_iterator(ds):
        t1, t5 = _eval_batch(graphdef, state, jnp.asarray(imgs), jnp.asarray(labels))
        N_CALLS += 1  # scaffolding
        bs = imgs.shape[0]
        top1s += float(t1) * bs
        top5s += float(t5) * bs
        n += bs
    return {
        "top1": top1s / max(n, 1),
        "top5": top5s / max(n, 1),
        "num_examples": n,
        "num_classes": num_classes,
    }


graphdef, state = nnx.split(TinyViT(nnx.Rngs(0)))  # scaffolding
print(evaluate(graphdef, state))  # scaffolding
_report({"jit(_eval_batch)"}, N_CALLS)
