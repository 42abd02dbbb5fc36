# source: https://github.com/voyager-jhk/JaxTransformer/blob/2caf36d2783d356aa6939201e7a230d174393629/src/train.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the jitted cross_entropy_loss branches with a Python `if label_smoothing > 0.0`, but the training step never passes label_smoothing, so the default 0.0 stays a Python float during tracing and the function compiles once without a tracer error.

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
# src/train.py (imports and cross_entropy_loss) at 2caf36d
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state, common_utils
from typing import Callable, Dict

@jax.jit
def cross_entropy_loss(logits: jnp.ndarray, labels: jnp.ndarray, label_smoothing: float = 0.0):
    num_classes = logits.shape[-1]
    one_hot_labels = common_utils.onehot(labels, num_classes=num_classes)
    
    if label_smoothing > 0.0:
        smooth_labels = one_hot_labels * (1.0 - label_smoothing) + label_smoothing / num_classes
        loss = -jnp.sum(smooth_labels * jax.nn.log_softmax(logits), axis=-1)
    else:
        loss = -jnp.sum(one_hot_labels * jax.nn.log_softmax(logits), axis=-1)
    
    padding_mask = (labels != 0).astype(jnp.float32)
    loss = loss * padding_mask
    return jnp.sum(loss) / jnp.sum(padding_mask)


key = jax.random.PRNGKey(0)  # scaffolding: stand-in logits/labels shaped like a (batch, seq, vocab) decoder output
for step in range(3):  # scaffolding: train_step calls it as cross_entropy_loss(logits, batch['labels'])
    logits = jax.random.normal(jax.random.fold_in(key, step), (4, 16, 32))  # scaffolding
    labels = jax.random.randint(jax.random.fold_in(key, 100 + step), (4, 16), 0, 32)  # scaffolding
    loss = cross_entropy_loss(logits, labels)
_report({"jit(cross_entropy_loss)"}, 3)
