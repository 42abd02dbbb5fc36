# source: https://github.com/cyniphile/ctg/commit/ac59da7faa6459c82567afd349cae69486704cb9
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The fix builds self.loss_grad_f = jit(grad(self.stacked_kappa_loss)) once in __init__ and boosting_loss only calls it, so the six boosting rounds compile once.

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
# kappa_loss.py of cyniphile/ctg at ac59da7 (the fix; KappaLossLGBM and the kappa helpers; KappaLossNN cut)
from jax import value_and_grad, grad, jit, vmap
import jax.random
import jax.numpy as jnp
import numpy as np  # type: ignore
from typing import Callable, List, Optional, Union, Dict


class LGBMClassifier:  # scaffolding: stand-in for lightgbm's, which is not installed
    def __init__(self, objective=None, n_estimators=100, **kwargs):  # scaffolding
        self._objective = objective  # scaffolding
        self.n_estimators = n_estimators  # scaffolding

    def fit(self, X, y):  # scaffolding: LightGBM calls the custom objective once per boosting round
        y_pred = np.zeros(len(y) * self.num_classes)  # scaffolding
        for _ in range(self.n_estimators):  # scaffolding
            grads, hess = self._objective(y, y_pred)  # scaffolding
            y_pred = y_pred - 0.1 * grads  # scaffolding
        return self  # scaffolding


def confusion_matrix_continuous(y_true, y_pred, num_classes):
    """
    A confusion matrix that support continuous class probabilities, i.e.
    the output of a softmax layer.
    It also outputs a continuous valued confusion matrix, which makes for
    a smoother loss function.
    """

    def f(i, j):
        """
        for each probability column j in y_true, sum the probabilities of
        of getting the expected answer for each expected answer i
        """
        return jnp.where(y_true == i, y_pred[:, j], 0).sum()

    vecs = vmap(vmap(f, in_axes=(0, None)), in_axes=(None, 0), out_axes=1)(
        jnp.arange(num_classes),
        jnp.arange(num_classes),
    )
    return vecs


def kappa_continuous(y_true, y_pred, num_classes, weight_matrix):
    """
    A continuous version of Cohen's Kappa, given each row of `y_pred` is
    a vector of probabilities for each class
    """
    assert len(y_true) == len(y_pred)

    y_true = y_true.astype(int)

    observed = confusion_matrix_continuous(y_true, y_pred, num_classes)
    num_scored_items = float(len(y_true))

    hist_true = jnp.bincount(y_true, minlength=num_classes, length=num_classes)
    hist_true = hist_true / num_scored_items
    preds = jnp.argmax(y_pred, axis=1)
    hist_pred = jnp.bincount(preds, minlength=num_classes, length=num_classes)
    hist_pred = hist_pred / num_scored_items
    expected = jnp.outer(hist_true, hist_pred)

    # Normalize observed array
    observed = observed / num_scored_items
    k = 1.0
    k -= sum(sum(weight_matrix * observed)) / sum(  # type: ignore
        sum(weight_matrix * expected)  # type: ignore
    )
    return k


class KappaLossLGBM(LGBMClassifier):
    def __init__(
        self,
        # Wrap in a list as a hack to work with LGBM types
        # TODO: is there a better way? Currently makes many warnings:
        # `[LightGBM] [Warning] Unknown parameter: ]`
        weight_matrix,
        num_classes: int,
        boosting_type: str = "gbdt",
        num_leaves: int = 31,
        max_depth: int = -1,
        learning_rate: float = 0.1,
        n_estimators: int = 100,
        subsample_for_bin: int = 200000,
        class_weight: Optional[Union[Dict, str]] = None,
        min_split_gain: float = 0,
        min_child_weight: float = 0.001,
        min_child_samples: int = 20,
        subsample: float = 1,
        subsample_freq: int = 0,
        colsample_bytree: float = 1,
        reg_alpha: float = 0,
        reg_lambda: float = 0,
        random_state: Optional[Union[int, np.random.RandomState]] = None,
        n_jobs: int = -1,
        silent: Union[bool, str] = "warn",
        importance_type: str = "split",
        **kwargs
    ):
        self.num_classes = num_classes
        objective = self.boosting_loss
        self.weight_matrix = weight_matrix
        self.loss_grad_f = jit(grad(self.stacked_kappa_loss))
        super().__init__(
            boosting_type=boosting_type,
            num_leaves=num_leaves,
            max_depth=max_depth,
            learning_rate=learning_rate,
            n_estimators=n_estimators,
            subsample_for_bin=subsample_for_bin,
            objective=objective,
            class_weight=class_weight,
            min_split_gain=min_split_gain,
            min_child_weight=min_child_weight,
            min_child_samples=min_child_samples,
            subsample=subsample,
            subsample_freq=subsample_freq,
            colsample_bytree=colsample_bytree,
            reg_alpha=reg_alpha,
            reg_lambda=reg_lambda,
            random_state=random_state,
            n_jobs=n_jobs,
            silent=silent,
            importance_type=importance_type,
            **kwargs
        )

    def get_weight_matrix(self):
        return np.array(self.weight_matrix)

    def stacked_kappa_loss(self, y_pred, y):
        """
        wrapped to switch argument order, make negative,
        and accept a column vector in LightGBM format where
        classes for all examples are stacked.
        """
        y_pred_shaped = jnp.reshape(y_pred, (self.num_classes, -1)).T
        return -1 * kappa_continuous(
            y, y_pred_shaped, self.num_classes, self.get_weight_matrix()
        )

    def boosting_loss(self, y, y_pred):
        grads = self.loss_grad_f(y_pred, y)
        # Cohen's kappa is TODO: is it? linear in all variables, so hessian is
        # going to always be zero. Apparantly setting hessian to 1 (LGBM only
        # takes the diagonal) reverts to simple gradient descent
        # https://github.com/microsoft/LightGBM/issues/2128
        hess = np.ones(len(grads))
        return np.array(grads), hess


weights = np.array([[0.0, 0.3, 2.0], [0.5, 0.0, 0.6], [2.0, 0.6, 0.0]])  # scaffolding: stand-in for the test weights
rng = np.random.default_rng(0)  # scaffolding
X = rng.normal(size=(60, 4))  # scaffolding: stand-in for the CTG data
y = np.arange(60) % 3  # scaffolding
KLGBM = KappaLossLGBM(weight_matrix=list(weights), num_classes=3, n_estimators=6)  # scaffolding: 6 rounds instead of 100
KLGBM.fit(X, y)
_report({"jit(stacked_kappa_loss)"}, KLGBM.n_estimators)  # scaffolding
