# source: https://github.com/gcucurull/jax-gat/pull/1
# expect: trace-time-error at line 42
# runtime: ERROR TypeError
# why: idx is a Python list of node indices passed inside the jitted batch, so it arrives as a list of traced scalars; preds[idx] then indexes with a non-tuple sequence and raises TypeError while tracing.
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
# gcucurull/jax-gat pull request #1: train.py's jitted loss_accuracy indexes with idx, a Python list passed inside the batch
import jax
import jax.numpy as np
from jax import jit, grad, random
from jax.example_libraries import optimizers  # scaffolding: was jax.experimental.optimizers


def predict_fun(params, x, adj, is_training=False, rng=None):  # scaffolding: stand-in for the GAT apply_fun
    return jax.nn.log_softmax((adj @ x) @ params)


@jit
def loss_accuracy(params, batch):
    inputs, targets, adj, is_training, rng, idx = batch
    preds = predict_fun(params, inputs, adj, is_training=is_training, rng=rng)
    target_class = np.argmax(targets, axis=1)
    predicted_class = np.argmax(preds, axis=1)
    ce_loss = -np.mean(np.sum(preds[idx] * targets[idx], axis=1))
    acc = np.mean(predicted_class[idx] == target_class[idx])
    return ce_loss, acc


n_nodes, n_feats, n_class = 600, 8, 3  # scaffolding
features = random.normal(random.PRNGKey(1), (n_nodes, n_feats))  # scaffolding
labels = jax.nn.one_hot(random.randint(random.PRNGKey(2), (n_nodes,), 0, n_class), n_class)  # scaffolding
adj = np.eye(n_nodes)  # scaffolding
params = random.normal(random.PRNGKey(3), (n_feats, n_class))  # scaffolding
rng_key = random.PRNGKey(0)  # scaffolding
idx_train = list(range(140))  # utils.load_data: idx_train = list(range(140))

try:  # scaffolding
    train_batch = (features, labels, adj, False, rng_key, idx_train)
    train_loss, train_acc = loss_accuracy(params, train_batch)
    _report({"jit(loss_accuracy)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
