# source: https://github.com/google/budoux/pull/95
# expect: shape-churn at line 39
# runtime: COMPILES 4 CALLS 4
# why: pred is jitted over phis, a dict from feature index to score that gains a key whenever boosting picks a new feature; every new key set is a new pytree structure with one more leaf, so each progress report retraces and recompiles pred (several compiles for four calls).

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
import typing

import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
from jax import device_put, jit

EPS = np.finfo(float).eps  # type: np.floating[typing.Any]


@jit
def pred(phis: typing.Dict[int, float],
         X: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
  """Predicts the output from the given classifiers and input entries.

  Args:
    phis (Dict[int, float]): Classifiers represented as a mapping from the
      feature index to its score.
    X (numpy.ndarray): Input entries.

  Returns:
    A list of inferred labels.
  """
  alphas: npt.NDArray[np.float64]
  y: npt.NDArray[np.int64]

  alphas = jnp.array(list(phis.values()))
  y = 2 * (
      X[:, list(phis.keys())] == True  # noqa (cannot replace `==` with `is`)
  ) - 1
  result: npt.NDArray[np.bool_] = y.dot(alphas) > 0
  return result


@jit
def update_weight(
    w: npt.NDArray[np.float64], YX: npt.NDArray[np.bool_]
) -> typing.Tuple[npt.NDArray[np.float64], float, int, bool]:
  res = w.dot(YX)
  err = 0.5 - jnp.abs(res - 0.5)
  m_best = err.argmin()
  pol_best = res.at[m_best].get() < 0.5
  err_min = err.at[m_best].get()
  alpha = jnp.log((1 - err_min) / (err_min + EPS))
  w = w * jnp.exp(alpha * (YX[:, m_best] == pol_best))
  w = w / w.sum()
  return w, alpha, m_best, pol_best


rng = np.random.RandomState(0)  # scaffolding: small random encoded dataset
X_train = rng.rand(64, 12) < 0.3  # scaffolding
X_train[:, -1] = True  # scaffolding: add a bias column (as the script does)
Y_train = rng.rand(64) < 0.5  # scaffolding
iters, out_span = 8, 2  # scaffolding: cut down from 10000 / 100
calls = 0  # scaffolding
# fit(), trimmed to the weight update and the pred() call of output_progress
X_train = device_put(X_train)
Y_train = device_put(Y_train)
N_train, _ = X_train.shape
w = jnp.ones(N_train) / N_train
YX_train = Y_train[:, None] ^ X_train
phis: typing.Dict[int, float] = dict()
for t in range(iters):
  w, alpha, m_best, pol_best = update_weight(w, YX_train)
  w.block_until_ready()
  m_best = int(m_best)
  alpha_signed = alpha if pol_best else -alpha
  phis.setdefault(m_best, 0)
  phis[m_best] += alpha_signed
  if (t + 1) % out_span == 0:
    pred_train = pred(phis, X_train)
    calls += 1  # scaffolding
    print(t + 1, sorted(phis))  # scaffolding
_report({"jit(pred)"}, calls)  # scaffolding
