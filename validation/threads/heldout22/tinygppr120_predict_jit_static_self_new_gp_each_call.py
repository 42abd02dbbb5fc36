# source: https://github.com/dfm/tinygp/pull/120
# expect: changing-static at line 63
# runtime: COMPILES 3 CALLS 3
# why: the PR jits GaussianProcess.predict with self static (static_argnums=(0,)); GaussianProcess is a plain class hashed by identity, so predicting with a freshly built GP for each parameter set compiles predict again every time (3 compiles for 3 calls).
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


from functools import partial
from typing import NamedTuple, Optional, Tuple, Union  # scaffolding

import jax
import jax.numpy as jnp

JAXArray = jax.Array  # scaffolding: tinygp.helpers


class kernels:  # scaffolding: only used in annotations
    Kernel = object  # scaffolding


class _Conditioned(NamedTuple):  # scaffolding: the conditioned process returned by condition
    loc: JAXArray  # scaffolding
    variance: JAXArray  # scaffolding
    covariance: JAXArray  # scaffolding


class GaussianProcess:  # tinygp/gp.py at the PR, cut to predict (constructor and condition are stand-ins)
    def __init__(self, kernel, X, *, diag=1e-6):  # scaffolding
        self.kernel = kernel  # scaffolding
        self.X = X  # scaffolding
        self.diag = diag  # scaffolding

    def condition(self, y, X_test=None, *, kernel=None, include_mean=True):  # scaffolding: dense GP conditioning
        X_test = self.X if X_test is None else X_test  # scaffolding
        K = self.kernel(self.X[:, None], self.X[None, :]) + self.diag * jnp.eye(self.X.shape[0])  # scaffolding
        Ks = self.kernel(X_test[:, None], self.X[None, :])  # scaffolding
        Kss = self.kernel(X_test[:, None], X_test[None, :])  # scaffolding
        alpha = jnp.linalg.solve(K, y)  # scaffolding
        cov = Kss - Ks @ jnp.linalg.solve(K, Ks.T)  # scaffolding
        return None, _Conditioned(Ks @ alpha, jnp.diag(cov), cov)  # scaffolding

    @partial(
        jax.jit,
        static_argnums=(0,),
        static_argnames=("include_mean", "return_var", "return_cov"),
    )
    def predict(
        self,
        y: JAXArray,
        X_test: Optional[JAXArray] = None,
        *,
        kernel: Optional[kernels.Kernel] = None,
        include_mean: bool = True,
        return_var: bool = False,
        return_cov: bool = False,
    ) -> Union[JAXArray, Tuple[JAXArray, JAXArray]]:
        """Predict the GP model at new test points conditioned on observed data

        Args:
            y (JAXArray): The observed data. This should have the shape
                ``(N_data,)``, where ``N_data`` was the zeroth axis of the ``X``
                data provided when instantiating this object.
            X_test (JAXArray, optional): The coordinates where the prediction
                should be evaluated. This should have a data type compatible
                with the ``X`` data provided when instantiating this object. If
                it is not provided, ``X`` will be used by default, so the
                predictions will be made.
            include_mean (bool, optional): If ``True`` (default), the predicted
                values will include the mean function evaluated at ``X_test``.
            return_var (bool, optional): If ``True``, the variance of the
                predicted values at ``X_test`` will be returned.
            return_cov (bool, optional): If ``True``, the covariance of the
                predicted values at ``X_test`` will be returned. If
                ``return_var`` is ``True``, this flag will be ignored.

        Returns:
            The mean of the predictive model evaluated at ``X_test``, with shape
            ``(N_test,)`` where ``N_test`` is the zeroth dimension of
            ``X_test``. If either ``return_var`` or ``return_cov`` is ``True``,
            the variance or covariance of the predicted process will also be
            returned with shape ``(N_test,)`` or ``(N_test, N_test)``
            respectively.
        """
        _, cond = self.condition(
            y, X_test, kernel=kernel, include_mean=include_mean
        )
        if return_var:
            return cond.loc, cond.variance
        if return_cov:
            return cond.loc, cond.covariance
        return cond.loc


def build_gp(amp, scale, X):  # scaffolding: the usual tinygp pattern, a new GP for every parameter set
    return GaussianProcess(lambda x1, x2: amp * jnp.exp(-0.5 * (x1 - x2) ** 2 / scale**2), X)  # scaffolding


X = jnp.linspace(0.0, 10.0, 20)  # scaffolding
y = jnp.sin(X)  # scaffolding
X_test = jnp.linspace(0.0, 10.0, 50)  # scaffolding
for k in range(3):  # scaffolding: e.g. predictions along an optimisation trace
    gp = build_gp(1.0 + 0.1 * k, 1.5, X)  # scaffolding
    gp.predict(y, X_test)  # scaffolding
_report({"jit(predict)"}, 3)  # scaffolding
