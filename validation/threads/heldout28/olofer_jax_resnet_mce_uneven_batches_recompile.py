# source: https://github.com/olofer/jax-resnet/blob/1c58789ba2db3deed44a4c7a31e56b9bbe81a62b/resnet-mce-example.py
# expect: shape-churn at line 222
# runtime: COMPILES 4 CALLS 135
# why: IterableDataset cuts each half of the sampled data into 15 batches at rounded boundaries; the Gillespie sampler returns 20030 rows, so the batches are 668 or 667 rows and the jitted mce_update_wd (and mce_loss in dataset_loss) compile once per batch size: 4 compiles where 2 would do.
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
_np_seed.random.seed(0)  # scaffolding: the script draws its data with unseeded np.random; seeded for a reproducible count
sys.argv = ["resnet-mce-example.py", "--epochs", "3"]  # scaffolding: 3 epochs instead of 250; every other option at its default (N=20000, 15 batches)

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

# ---- resnet-mce-example.py ----
"""
Multi-class probability regression using the JAX ResNet.

Synthetic problem data generated from a simple CTMC (one state).
There are K-1 different paths to jump out of the state and each jump has its own rate.
Each delta-time K things can happen, either remain in the state or jump out.
The jump rates are all different functions of a observed state vector x.
The state x moves via a stochastic process until a jump even occurs (or timed out).
Multiclass logits can be fitted the usual way, and then the jump rates can be backed out.

SEE: https://jax.readthedocs.io/en/latest/notebooks/neural_network_with_tfds_data.html

EXAMPLE:
  python3 resnet-mce-example.py  --show-loss --show-function

"""

import argparse
import numpy as np
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
resffn = sys.modules[__name__]  # scaffolding: resnet_model.py is inlined above
# from dataset_batcher import IterableDataset, twoway_random_split  # scaffolding: inlined above
# from toy_dataset_utils import (  # scaffolding: inlined above
#     create_eval_mesh,
#     plot_grid,
# )
# from train_test_patterns import update_many_epochs  # scaffolding: inlined above
# import matplotlib.pyplot as plt  # scaffolding: not installed


# Each row of f = multiclass logits, with 0-th element the "no event" class
def rates_from_logits(f: np.ndarray, dt: float = 1.0):
    f0 = f[:, 0].reshape((f.shape[0], 1))
    C = -1.0 * f0 / (1 - np.exp(f0)) / dt
    return np.exp(f[:, 1:]) * np.repeat(C, f.shape[1] - 1, axis=1)


def numpy_one_hot(x, k, dtype=np.float32):
    return np.array(x[:, None] == np.arange(k), dtype)


@jax.jit
def mce_loss(params, features, targets):
    logprobs = resffn.batched_predict_multi_logits(params, features)
    return -1.0 * jnp.mean(targets * logprobs)


@jax.jit
def mce_update_wd(params, x, y, step_size, weight_decay):
    grads = jax.grad(mce_loss)(params, x, y)
    return jax.tree.map(  # scaffolding: jax.tree_map was removed from jax; same function
        lambda p, dp: p - step_size * (dp + weight_decay * p), params, grads
    )


def gillespie_sample_path(
    x0: np.ndarray,
    drift: callable,
    diffusion: callable,
    jump_rates: callable,
    deltatime: float = 0.1,
    timeout: float = 100.0,
) -> dict:
    assert deltatime > 0
    sqrt_dt = np.sqrt(deltatime)
    kmax = int(np.ceil(timeout / deltatime))
    x = np.copy(x0).flatten()
    D = len(x)
    X = np.tile(np.nan, (kmax, D))
    k, t, event = int(0), float(0.0), False
    while not event and k < kmax:
        X[k, :] = x
        rates = jump_rates(t, x)
        assert np.all(rates > 0), "any (listed) jump rate must be positive"
        total_hazard = np.sum(rates)
        event = np.random.rand() < 1 - np.exp(-1.0 * deltatime * total_hazard)
        which_event = (
            int(0)
            if not event
            else 1 + np.random.choice(len(rates), p=rates / total_hazard)
        )
        x += drift(t, x) * deltatime + diffusion(t, x) * sqrt_dt * np.random.randn(D)
        t += deltatime
        k += 1

    return {"X": X[:k, :], "event": which_event}


def generate_gillespie_dataset(
    D: int, N: int, mu: callable, sigma: callable, rates: callable, **kwargs
):
    def expanded_target_(l: int, event: int) -> np.array:
        y = np.zeros((l, 1), dtype=np.int32)
        y[l - 1, 0] = event
        return y

    path_count = int(0)
    n = int(0)
    X = None
    Y = None
    while n < N:
        path = gillespie_sample_path(
            np.zeros(D),
            drift=mu,
            diffusion=sigma,
            jump_rates=rates,
            deltatime=kwargs["deltatime"],
            timeout=kwargs["timeout"],
        )
        X = np.row_stack([X, path["X"]]) if X is not None else path["X"]
        Y = (
            np.row_stack([Y, expanded_target_(path["X"].shape[0], path["event"])])
            if Y is not None
            else expanded_target_(path["X"].shape[0], path["event"])
        )
        n += path["X"].shape[0]
        assert n == X.shape[0]
        assert X.shape[1] == D
        assert len(Y) == n
        path_count += 1

    return X, Y, path_count


if __name__ == "__main__":

    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=3, help="number of resnet layers")
    parser.add_argument("--units-per-layer", type=int, default=125)
    parser.add_argument("--epochs", type=int, default=250)
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--eprint", type=int, default=100)
    parser.add_argument("--bprint", type=int, default=0)
    parser.add_argument("--jax-seed", type=int, default=42)
    parser.add_argument("--N", type=int, default=20000)
    parser.add_argument("--sigma", type=float, default=0.10)
    parser.add_argument("--shuffle", action="store_true")
    parser.add_argument("--show-loss", action="store_true")
    parser.add_argument("--show-function", action="store_true")
    parser.add_argument("--eval-function", action="store_true")
    parser.add_argument("--which-function", type=str, default="A")
    parser.add_argument("--step-size", type=float, default=1.0e-2)
    parser.add_argument("--weight-decay", type=float, default=0.0)
    parser.add_argument("--serve-jax", action="store_true")
    args = parser.parse_args()

    DT = 0.05
    TIMEOUT = 10.0

    def mufunc(t, x):
        return np.zeros(x.shape)

    def sigmafunc(t, x):
        return np.ones(x.shape)

    if args.which_function == "A":

        def hazardfunc(t, x):
            return np.array([0.10, 0.02, 0.20])

    elif args.which_function == "B":

        def hazardfunc(t, x):
            R = np.sqrt(np.sum(x * x))
            return np.array(
                [0.10 + 0.10 * np.sin(R) ** 2, 0.02 + 0.05 * R**2, 0.20 + 0.05 * R]
            )

    else:
        raise ValueError("--which-function option value not recognized")
    
    print("employing hazard function %s" % (args.which_function))

    print("generating data (requesting at least %i samples).." % (args.N))
    X, Y, paths_ = generate_gillespie_dataset(
        int(2), args.N, mufunc, sigmafunc, hazardfunc, deltatime=DT, timeout=TIMEOUT
    )

    print("sampled from %i paths" % (paths_))
    seen_event_types = np.unique(Y)
    print([X.shape, Y.shape])

    num_possible_events = len(hazardfunc(0.0, np.array([0.0, 0.0]))) + 1
    print(
        "seen event types: %i, possible types: %i"
        % (len(seen_event_types), num_possible_events)
    )

    Y = numpy_one_hot(Y.flatten(), num_possible_events)
    print(Y.shape)

    layer_sizes = [args.units_per_layer for _ in range(args.layers + 1)]
    layer_sizes.insert(0, 2)  # state space dim. = 2
    layer_sizes.append(num_possible_events)  # K-class output -> logits vector

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

    params, losses = update_many_epochs(
        params, dataset1, trainparams, mce_update_wd, mce_loss, dataset2
    )

    if args.eval_function:
        Yhat = resffn.batched_predict_multi_logits(params, X)
        Rhat = rates_from_logits(Yhat, dt=DT)
        Rtru = np.row_stack([hazardfunc(None, X[k, :]) for k in range(X.shape[0])])
        assert np.all(Rhat.shape == Rtru.shape)

        print("mean estimated jump rates (along paths):")
        print(np.mean(np.array(Rhat), axis=0))
        print("mean true jump rates (along paths):")
        print(np.mean(np.array(Rtru), axis=0))
        print("mean absolute jump rate error (along paths):")
        print(np.mean(np.abs(np.array(Rhat - Rtru)), axis=0))

    if args.show_loss:
        plt.plot(losses["train"], label="train set")
        plt.plot(losses["test"], label="test set")
        plt.xlabel("Epoch number")
        plt.ylabel("MCE Loss")
        plt.grid(True)
        plt.legend()
        plt.show()

    if args.show_function:
        x1_range = np.quantile(np.abs(X[:, 0]), 0.90)
        x2_range = np.quantile(np.abs(X[:, 1]), 0.90)

        X12 = create_eval_mesh(
            xrange=(-x1_range, x1_range), yrange=(-x2_range, x2_range)
        )
        Y12 = resffn.batched_predict_multi_logits(params, X12)
        R12 = rates_from_logits(Y12, dt=DT)

        print(X12.shape)
        print(Y12.shape)
        print(R12.shape)

        for c in range(R12.shape[1]):
            plt.figure(figsize=(10, 6))
            plot_grid(
                X12,
                R12[:, c],
                title_str="$\lambda_{%i}$" % (c + 1),
                fcn=lambda x: x,
                cmap="viridis",
            )
            plt.scatter(x=X[:, 0], y=X[:, 1], alpha=0.05, c="black", s=1.0)
            plt.gca().set_xlim((-x1_range, x1_range))
            plt.gca().set_ylim((-x2_range, x2_range))
            plt.show()

    print("done.")

_report({"jit(mce_update_wd)", "jit(mce_loss)"}, 3 * (15 + 15 + 15))  # scaffolding: per epoch 15 updates, then mce_loss on 15 train and 15 test batches
