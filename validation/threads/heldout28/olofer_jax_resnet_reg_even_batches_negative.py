# source: https://github.com/olofer/jax-resnet/blob/1c58789ba2db3deed44a4c7a31e56b9bbe81a62b/resnet-reg-example.py
# expect: none
# runtime: COMPILES 2 CALLS 135
# why: same batcher and training loop as the multi-class demo, but the regression demo draws exactly N=1500 rows, so each 750-row half splits into 15 batches of 50: the jitted mse_update_wd and mse_loss compile once each for 135 calls.
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


import sys  # scaffolding
import numpy as _np_seed  # scaffolding
_np_seed.random.seed(0)  # scaffolding: the script draws its data with unseeded np.random; seeded for reproducibility
sys.argv = ["resnet-reg-example.py", "--epochs", "3"]  # scaffolding: 3 epochs instead of 500; every other option at its default (N=1500, 15 batches)

# ---- resnet_model.py ----
"""
ResNet with Layer Normalization in JAX
"""

import jax
import jax.numpy as jnp
import numpy as np


def random_layer_params(m, n, key, scale=None, uniform=True):
    w_key, b_key = jax.random.split(key)
    if scale is None:
        scale = 1.0 / jnp.sqrt(m)  # m is the input size
    if uniform:
        weights = 2 * scale * (jax.random.uniform(w_key, (n, m)) - 0.5)
        biases = 2 * scale * (jax.random.uniform(b_key, (n,)) - 0.5)
    else:
        weights = scale * jax.random.normal(w_key, (n, m))
        biases = scale * jax.random.normal(b_key, (n,))
    return {
        "weight": weights,
        "bias": biases,
    }


def init_network_params(sizes, key):
    keys = jax.random.split(key, len(sizes))
    return [
        random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)
    ]


def num_parameters(params):
    return np.sum(
        [np.prod(l["weight"].shape) + np.prod(l["bias"].shape) for l in params]
    )


def relu(x):
    return jnp.maximum(0, x)


def predict(params, x):
    LN_EPS = 1.0e-6
    activations = jnp.dot(params[0]["weight"], x) + params[0]["bias"]
    for p in params[1:-1]:
        mean = jnp.mean(activations)
        var = jnp.var(activations)
        activations = (activations - mean) / jnp.sqrt(var + LN_EPS)
        outputs = jnp.dot(p["weight"], activations) + p["bias"]
        activations = relu(outputs) + outputs

    logits = jnp.dot(params[-1]["weight"], activations) + params[-1]["bias"]
    return logits


batched_predict = jax.vmap(predict, in_axes=(None, 0))


def predict_multi_logits(params, x):
    f = predict(params, x)
    return f - jax.scipy.special.logsumexp(f)


batched_predict_multi_logits = jax.vmap(predict_multi_logits, in_axes=(None, 0))

# ---- dataset_batcher.py ----
import numpy as np
import jax.numpy as jnp


class IterableDataset:
    def __init__(self, X: np.ndarray, y: np.ndarray, batches: int, w: np.ndarray = None):
        assert len(X.shape) == 2
        assert len(y.shape) == 2
        assert batches >= 1
        assert X.shape[0] == y.shape[0]
        self.X = np.copy(X)
        self.y = np.copy(y)
        self.w = None if w is None else np.copy(w)
        if not self.w is None:
            assert len(w.shape) == 2
            assert w.shape[0] == y.shape[0]
        tmp = np.linspace(0, 1, batches + 1)
        self.splits = [int(np.round(k * self.X.shape[0])) for k in tmp]
        self.serve_jnp = False

    def __len__(self):
        return len(self.splits) - 1

    def __getitem__(self, idx):
        irange = np.arange(self.splits[idx], self.splits[idx + 1])
        if self.serve_jnp:
            if self.w is None:
                return jnp.array(self.X[irange, :]), jnp.array(self.y[irange, :])
            else:
                return (
                    jnp.array(self.X[irange, :]),
                    jnp.array(self.y[irange, :]),
                    jnp.array(self.w[irange, :]),
                )
        else:
            if self.w is None:
                return self.X[irange, :], self.y[irange, :]
            else:
                return self.X[irange, :], self.y[irange, :], self.w[irange, :]

    def size(self):
        return self.X.shape[0]
    
    def has_weights(self):
        return not self.w is None

    def shuffle(self):
        idx = np.random.permutation(self.X.shape[0])
        self.X = self.X[idx, :]
        self.y = self.y[idx, :]
        if not self.w is None:
            self.w = self.w[idx, :]

    def serve_numpy(self):
        self.serve_jnp = False

    def serve_jax(self):
        self.serve_jnp = True


def twoway_random_split(X: np.ndarray, y: np.ndarray, B: int, weights: np.ndarray = None):
    def local_slice(A: np.ndarray, idx):
        assert len(A.shape) == 1 or len(A.shape) == 2
        return A[idx].reshape((len(idx), 1)) if len(A.shape) == 1 else A[idx, :]

    idxshuffle = np.random.permutation(X.shape[0])
    idx1 = idxshuffle[: (X.shape[0] // 2)]
    idx2 = idxshuffle[(X.shape[0] // 2) :]

    d1 = IterableDataset(
        local_slice(X, idx1),
        local_slice(y, idx1),
        batches=B,
        w=None if weights is None else local_slice(weights, idx1),
    )
    d2 = IterableDataset(
        local_slice(X, idx2),
        local_slice(y, idx2),
        batches=B,
        w=None if weights is None else local_slice(weights, idx2),
    )

    return d1, d2

# ---- train_test_patterns.py ----
import numpy as np
# from dataset_batcher import IterableDataset  # scaffolding: inlined above
import time


def dataset_loss(modelparams, dataset: IterableDataset, lossfcn: callable):
    nb = len(dataset)
    losses = np.tile(np.nan, (nb,))
    samples = np.tile(np.nan, (nb,))
    for b, XYb in enumerate(dataset):
        assert len(XYb) >= 2, "expected X, y, .."
        assert XYb[0].shape[0] == XYb[1].shape[0]
        samples[b] = XYb[0].shape[0]
        if len(XYb) == 2:
            losses[b] = lossfcn(modelparams, XYb[0], XYb[1])
        else:
            assert len(XYb) == 3, "expected X, y, w"
            assert XYb[0].shape[0] == XYb[2].shape[0]
            losses[b] = lossfcn(modelparams, XYb[0], XYb[1], XYb[2])

    return np.sum(losses * samples) / np.sum(samples)


def update_one_epoch(
    modelparams, dataset: IterableDataset, trainparams: dict, updatefcn: callable
):
    for b, XYb in enumerate(dataset):
        assert len(XYb) == 2 or len(XYb) == 3, "expected (X,y) or (X,y,w)"
        assert XYb[0].shape[0] == XYb[1].shape[0]

        if trainparams["bprint"] > 0 and b % trainparams["bprint"] == 0:
            print(
                "batch %i -- features are %i-by-%i"
                % (b, XYb[0].shape[0], XYb[0].shape[1])
            )

        if len(XYb) == 2:
            modelparams = updatefcn(
                modelparams,
                XYb[0],
                XYb[1],
                trainparams["step_size"],
                trainparams["weight_decay"] / len(dataset),
            )
        else:
            modelparams = updatefcn(
                modelparams,
                XYb[0],
                XYb[1],
                XYb[2],
                trainparams["step_size"],
                trainparams["weight_decay"] / len(dataset),
            )

    return modelparams


def update_many_epochs(
    modelparams,
    train_data: IterableDataset,
    trainparams: dict,
    updatefcn: callable,
    lossfcn: callable = None,
    test_data: IterableDataset = None,
):
    train_losses = []
    test_losses = []

    for epoch in range(trainparams["epochs"]):
        if trainparams["shuffle"]:
            train_data.shuffle()

        start_time = time.time()

        modelparams = update_one_epoch(modelparams, train_data, trainparams, updatefcn)

        epoch_time = time.time() - start_time

        train_loss, test_loss = np.nan, np.nan

        if not lossfcn is None:
            train_loss = dataset_loss(modelparams, train_data, lossfcn)
            if not test_data is None:
                test_loss = dataset_loss(modelparams, test_data, lossfcn)

        train_losses.append(float(train_loss))
        test_losses.append(float(test_loss))

        if epoch == 0 or epoch % trainparams["eprint"] == 0:
            print("epoch {} in {:0.2f} sec".format(epoch, epoch_time))
            if not lossfcn is None:
                print("training/testing losses {} / {}".format(train_loss, test_loss))

    return modelparams, {"train": train_losses, "test": test_losses}

# ---- toy_dataset_utils.py (the two helpers the script imports) ----
import numpy as np
# import sklearn.datasets  # scaffolding: not installed; only create_dataset (not used here) needs it
# import matplotlib.pyplot as plt  # scaffolding: not installed; the plots are off by default (--show-loss, --show-function)


def create_eval_mesh(xrange=(-4.0, 4.0), yrange=(-3.0, 3.0), ngrid=int(200)):
    x = np.linspace(xrange[0], xrange[1], ngrid)
    y = np.linspace(yrange[0], yrange[1], ngrid)
    xv, yv = np.meshgrid(x, y)
    return np.stack([xv.flatten(), yv.flatten()], axis=-1)


def plot_grid(x12, f12, cmap="bwr", fcn: callable = None, title_str: str = None):
    assert x12.shape[1] == 2
    ngrid = int(np.sqrt(x12.shape[0]))
    assert ngrid**2 == x12.shape[0]
    x1g = np.linspace(np.min(x12[:, 0]), np.max(x12[:, 0]), ngrid)
    x2g = np.linspace(np.min(x12[:, 1]), np.max(x12[:, 1]), ngrid)
    bbox = (x1g[0], x1g[-1], x2g[0], x2g[-1])
    p12 = 1.0 / (1.0 + np.exp(-1 * f12)) if fcn is None else fcn(f12)
    plt.imshow(p12.reshape((ngrid, ngrid)), origin="lower", extent=bbox, cmap=cmap)
    plt.xlabel("$x_1$")
    plt.ylabel("$x_2$")
    plt.colorbar()
    if not title_str is None:
        plt.title(title_str)

# ---- resnet-reg-example.py ----
"""
Demonstration of multivariate regression with the JAX resnet
"""

import argparse
import numpy as np
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
resffn = sys.modules[__name__]  # scaffolding: resnet_model.py is inlined above
# from dataset_batcher import IterableDataset, twoway_random_split  # scaffolding: inlined above
# from toy_dataset_utils import (  # scaffolding: inlined above (create_dataset and create_uniform_contrast are not used by this script)
#     create_dataset,
#     create_eval_mesh,
#     plot_grid,
#     create_uniform_contrast,
# )
# from train_test_patterns import update_many_epochs  # scaffolding: inlined above
# import matplotlib.pyplot as plt  # scaffolding: not installed


@jax.jit
def mse_loss(params, features, targets):
    preds = resffn.batched_predict(params, features)
    error = targets - preds
    return 0.5 * jnp.mean(error * error)


@jax.jit
def mse_update_wd(params, x, y, step_size, weight_decay):
    grads = jax.grad(mse_loss)(params, x, y)
    return jax.tree.map(  # scaffolding: jax.tree_map was removed from jax; same function
        lambda p, dp: p - step_size * (dp + weight_decay * p), params, grads
    )


def make_test_dataset(N: int, M: int):
    X = np.random.randn(N)
    Y = np.column_stack([np.cos((k + 1) * 2 * np.pi * X / 4.0) for k in range(M)])
    return X.reshape((N, 1)), Y


if __name__ == "__main__":

    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=3, help="number of resnet layers")
    parser.add_argument("--units-per-layer", type=int, default=125)
    parser.add_argument("--epochs", type=int, default=500)
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--eprint", type=int, default=100)
    parser.add_argument("--bprint", type=int, default=0)
    parser.add_argument("--jax-seed", type=int, default=42)
    parser.add_argument("--N", type=int, default=1500)
    parser.add_argument("--M", type=int, default=3)
    parser.add_argument("--sigma", type=float, default=0.10)
    parser.add_argument("--shuffle", action="store_true")
    parser.add_argument("--show-loss", action="store_true")
    parser.add_argument("--show-function", action="store_true")
    parser.add_argument("--step-size", type=float, default=1.0e-2)
    parser.add_argument("--weight-decay", type=float, default=0.0)
    parser.add_argument("--serve-jax", action="store_true")
    args = parser.parse_args()

    X, Y0 = make_test_dataset(args.N, args.M)
    Y = Y0 + np.random.randn(args.N, args.M) * args.sigma

    print([X.shape, Y.shape])

    layer_sizes = [args.units_per_layer for _ in range(args.layers + 1)]
    layer_sizes.insert(0, 1)  # single input
    layer_sizes.append(args.M)  # M outputs

    print(layer_sizes)
    params = resffn.init_network_params(layer_sizes, jax.random.PRNGKey(args.jax_seed))

    print(
        "model has %i parameters, and %i hidden layers"
        % (resffn.num_parameters(params), len(params) - 2)
    )

    assert args.step_size > 0
    assert args.weight_decay >= 0

    trainparams = {
        "bprint": args.bprint,
        "eprint": args.eprint,
        "step_size": args.step_size,
        "weight_decay": args.weight_decay,
        "epochs": args.epochs,
        "shuffle": args.shuffle,
    }

    dataset1, dataset2 = twoway_random_split(X, Y, args.batches)

    if args.serve_jax:
        dataset1.serve_jax()
        dataset2.serve_jax()

    print("MSE cannot be lower than %f" % (0.5 * args.sigma**2))

    params, losses = update_many_epochs(
        params, dataset1, trainparams, mse_update_wd, mse_loss, dataset2
    )

    if args.show_loss:
        plt.plot(losses["train"], label="train set")
        plt.plot(losses["test"], label="test set")
        plt.xlabel("Epoch number")
        plt.ylabel("MSE Loss")
        plt.grid(True)
        plt.legend()
        plt.show()

    if args.show_function:
        Xhat = np.column_stack([np.linspace(-4.0, 4.0, 500)])
        Fhat = np.array(resffn.batched_predict(params, Xhat))

        idx = np.argsort(X, axis=0).flatten()

        for t in range(args.M):
            plt.scatter(X, Y[:, t], alpha=0.05, c="black", label="noisy samples")
            plt.plot(X[idx, 0], Y0[idx, t], c="green", label="True target", alpha=0.50)
            plt.plot(Xhat, Fhat[:, t], c="blue", label="ResNet output", alpha=0.50)
            plt.grid(True)
            plt.legend()
            plt.xlabel("x")
            plt.ylabel("y[%i]" % (t))
            plt.show()

    print("done.")

_report({"jit(mse_update_wd)", "jit(mse_loss)"}, 3 * (15 + 15 + 15))  # scaffolding: per epoch 15 updates, then mse_loss on 15 train and 15 test batches
