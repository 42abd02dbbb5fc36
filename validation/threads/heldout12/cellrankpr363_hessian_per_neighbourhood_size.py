# source: https://github.com/scverse/cellrank/pull/363
# expect: shape-churn at line 177
# runtime: COMPILES 8 CALLS 20
# why: the jitted correlation softmax is differentiated (hessian) once per cell on W, the displacement matrix to that cell's neighbours, whose row count is the cell's neighbour count, so every distinct neighbourhood size traces and compiles the function again (twice per size here).

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
from math import fsum
from typing import Tuple

import numpy as np
from scipy.sparse import csr_matrix


class logg:  # scaffolding: cellrank.logging stand-in
    @staticmethod
    def debug(msg):
        pass


def np_mean(arr, axis):  # scaffolding: numba helper from cellrank.tl.kernels._utils
    return arr.mean(axis=axis)


def norm(arr, axis):  # scaffolding: numba helper from cellrank.tl.kernels._utils
    return np.linalg.norm(arr, axis=axis)


TOL = 1e-12  # scaffolding: cellrank.tl.kernels._base_kernel.TOL

# --- cellrank/tl/kernels/_utils.py ---
try:
    import jax.numpy as jnp
    from jax import jit, hessian

    _HAS_JAX = True

    @jit
    def _predict_transition_probabilities_jax(
        X: np.ndarray,
        W: np.ndarray,
        softmax_scale: float = 1,
    ):
        logg.debug(f"Tracing function of `{W.shape}` dimension")

        # pearson correlation
        W -= W.mean(axis=1)[:, None]
        X -= X.mean()

        W_norm = jnp.linalg.norm(W, axis=1)
        X_norm = jnp.linalg.norm(X)
        denom = X_norm * W_norm

        mask = jnp.isclose(denom, 0)
        denom = jnp.where(jnp.isclose(denom, 0), 1, denom)  # essential

        x = W.dot(X) / denom

        numerator = x * softmax_scale
        numerator = jnp.exp(numerator - jnp.nanmax(numerator))
        numerator = jnp.where(mask, 0, numerator)  # essential

        softmax = numerator / jnp.nansum(numerator)

        return softmax

    _predict_transition_probabilities_jax_H = hessian(
        _predict_transition_probabilities_jax
    )

except ImportError:
    _HAS_JAX = False
    _predict_transition_probabilities_jax = None
    _predict_transition_probabilities_jax_H = None


def _get_probs_for_zero_vec(size: int) -> Tuple[np.ndarray, np.ndarray]:
    # float32 doesn't have enough precision
    return (
        np.ones(size, dtype=np.float64) / size,
        np.zeros(size, dtype=np.float64),
    )


def _predict_transition_probabilities_numpy(
    X: np.ndarray, W: np.ndarray, softmax_scale: float
) -> Tuple[np.ndarray, np.ndarray]:
    # mean centering + cosine correlation
    W -= np.expand_dims(np_mean(W, axis=1), axis=1)
    W_norm = norm(W, axis=1)

    if X.shape[0] == 1:
        X = X - np.mean(X)
        X_norm = np.linalg.norm(X)

        denom = X_norm * W_norm
        mask = denom == 0
        denom[mask] = 1

        # pearson correlation
        x = W.dot(X[0]) / denom
    else:
        assert X.shape[0] == W.shape[0]
        X = X - np.expand_dims(np_mean(X, axis=1), axis=1)
        X_norm = norm(X, axis=1)

        denom = X_norm * W_norm
        mask = denom == 0
        denom[mask] = 1

        # pearson correlation
        x = np.array([np.dot(X[i], W[i]) for i in range(X.shape[0])]) / denom

    numerator = x * softmax_scale
    numerator = np.exp(numerator - np.nanmax(numerator))
    numerator = np.where(mask, 0, numerator)  # essential

    return numerator / np.nansum(numerator), x


def _calculate_starts(indptr: np.ndarray, ixs) -> np.ndarray:
    starts = np.cumsum(indptr[ixs + 1] - indptr[ixs])
    return np.hstack((np.array([0], dtype=starts.dtype), starts))


# --- cellrank/tl/kernels/_velocity_kernel.py: _run_stochastic at the PR's parent ---
def _run_stochastic(
    ixs: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    expression: np.ndarray,
    expectation: np.ndarray,
    variance: np.ndarray,
    softmax_scale: float = 1,
    queue=None,
) -> np.ndarray:
    global calls  # scaffolding
    starts = _calculate_starts(indptr, ixs)
    probs_cors = np.empty((2, starts[-1]))

    for i, ix in enumerate(ixs):
        start, end = indptr[ix], indptr[ix + 1]

        nbhs_ixs = indices[start:end]
        n_neigh = len(nbhs_ixs)
        assert n_neigh, "Cell does not have any neighbors."

        v = expectation[ix]

        if np.all(v == 0):
            p, c = _get_probs_for_zero_vec(len(nbhs_ixs))
        else:
            # compute the Hessian tensor, and turn it into a matrix that has the diagonal elements in its rows
            W = expression[nbhs_ixs, :] - expression[ix, :]

            H = _predict_transition_probabilities_jax_H(
                v, W, softmax_scale=softmax_scale
            )
            calls += 1  # scaffolding
            H_diag = np.array([np.diag(h) for h in H])

            # compute zero order term
            p_0, c = _predict_transition_probabilities_numpy(
                v[None, :], W, softmax_scale=softmax_scale
            )

            # compute second order term (note that the first order term cancels)
            p_2 = 0.5 * H_diag.dot(variance[ix])

            # combine both to give the second order Taylor approximation. Can sometimes be negative because we
            # neglected higher order terms, so force it to be non-negative
            p = np.clip(p_0 + p_2, a_min=0, a_max=1)

            mask = np.isnan(p)
            p[mask] = 0
            c[mask] = 0

            if np.all(p == 0):
                p, c = _get_probs_for_zero_vec(len(nbhs_ixs))

            sum_ = fsum(p)
            if not np.isclose(sum_, 1.0, rtol=TOL):
                p[~mask] = p[~mask] / sum_

        probs_cors[0, starts[i] : starts[i] + n_neigh] = p
        probs_cors[1, starts[i] : starts[i] + n_neigh] = c

        if queue is not None:
            queue.put(1)

    if queue is not None:
        queue.put(None)

    return probs_cors


# --- scaffolding: a 20-cell neighbour graph whose cells have 30, 27, 24 or 21 neighbours, random expression,
# velocity expectation and variance; the ordering line is _run_in_parallel's for fname == "_run_stochastic" ---
rs = np.random.RandomState(0)  # scaffolding
n_cells, n_genes = 40, 4  # scaffolding
counts = [30, 27, 24, 21] * 5  # scaffolding
rows, cols = [], []  # scaffolding
for r, k in enumerate(counts):  # scaffolding
    nb = rs.choice([j for j in range(n_cells) if j != r], size=k, replace=False)  # scaffolding
    rows += [r] * k  # scaffolding
    cols += list(nb)  # scaffolding
conn = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(counts), n_cells))  # scaffolding
expression = rs.randn(n_cells, n_genes)  # scaffolding
expectation = rs.randn(n_cells, n_genes)  # scaffolding
variance = np.abs(rs.randn(n_cells, n_genes))  # scaffolding
calls = 0  # scaffolding
ixs = np.argsort(np.array((conn != 0).sum(1)).ravel())
res = _run_stochastic(ixs, conn.indices, conn.indptr, expression, expectation, variance, softmax_scale=4.0)
print(res.shape, float(res[0].sum()))  # scaffolding
_report({"jit(_predict_transition_probabilities_jax)"}, calls)  # scaffolding
