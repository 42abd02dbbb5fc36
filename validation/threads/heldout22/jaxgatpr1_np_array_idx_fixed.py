# source: https://github.com/gcucurull/jax-gat/pull/1
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: with the PR's np.array(idx) the traced index list is stacked into an array and the function traces; it compiles once per index-list length (train 140, val 300): 2 compiles for 4 calls.
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
# gcucurull/jax-gat pull request #1: the PR's fix, indexing with np.array(idx) inside the jitted loss_accuracy
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
    ce_loss = -np.mean(np.sum(preds[np.array(idx)] * targets[np.array(idx)], axis=1))
    acc = np.mean(predicted_class[np.array(idx)] == target_class[np.array(idx)])
    return ce_loss, acc


n_nodes, n_feats, n_class = 600, 8, 3  # scaffolding
features = random.normal(random.PRNGKey(1), (n_nodes, n_feats))  # scaffolding
labels = jax.nn.one_hot(random.randint(random.PRNGKey(2), (n_nodes,), 0, n_class), n_class)  # scaffolding
adj = np.eye(n_nodes)  # scaffolding
params = random.normal(random.PRNGKey(3), (n_feats, n_class))  # scaffolding
rng_key = random.PRNGKey(0)  # scaffolding
idx_train = list(range(140))  # utils.load_data: idx_train = list(range(140))

idx_val = list(range(200, 500))  # utils.load_data
for epoch in range(2):  # scaffolding: two epochs of the training loop's evaluation
    train_batch = (features, labels, adj, False, rng_key, idx_train)
    eval_batch = (features, labels, adj, False, rng_key, idx_val)
    train_loss, train_acc = loss_accuracy(params, train_batch)
    val_loss, val_acc = loss_accuracy(params, eval_batch)
_report({"jit(loss_accuracy)"}, 4)  # scaffolding
