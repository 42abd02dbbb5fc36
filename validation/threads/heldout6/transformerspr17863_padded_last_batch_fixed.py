# source: https://github.com/huggingface/transformers/pull/17863
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR's approach: the last batch is padded up to the full batch size and the padded rows are masked out of the metric, so every step has the same shape and the pmapped eval step compiles once for 3 calls.

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
import jax
import jax.numpy as jnp
import numpy as np


def eval_step(params, batch):
    pred = batch["x"] @ params
    return jnp.sum(batch["mask"] * (pred - batch["y"]) ** 2)


def pad_batch(batch, batch_size):
    n = len(batch["y"])
    out = {k: np.concatenate([v, np.zeros((batch_size - n,) + v.shape[1:], v.dtype)]) for k, v in batch.items()}
    out["mask"] = (np.arange(batch_size) < n).astype(np.float32)
    return out


p_eval_step = jax.pmap(eval_step, in_axes=(None, 0))

rng = np.random.default_rng(0)
dataset = {"x": rng.normal(size=(10, 3)).astype(np.float32), "y": rng.normal(size=(10,)).astype(np.float32)}
params = jnp.ones(3)
batch_size = 4

calls, total = 0, 0.0
for i in range(0, len(dataset["y"]), batch_size):
    batch = pad_batch({k: v[i : i + batch_size] for k, v in dataset.items()}, batch_size)
    batch = jax.tree_util.tree_map(lambda v: v[None], batch)  # shard over 1 device
    total += float(p_eval_step(params, batch)[0])
    calls += 1
_report({"jit(_fun)"}, calls)
