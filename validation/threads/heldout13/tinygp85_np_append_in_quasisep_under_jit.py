# source: https://github.com/dfm/tinygp/issues/85
# expect: trace-time-error at line 77
# runtime: ERROR TracerArrayConversionError
# why: Quasisep.to_general_qsm shifts the training coordinates with numpy's np.append; inside the jitted GaussianProcess._condition the indexed coordinates are tracers, so predicting at an explicit X_test raises a TracerArrayConversionError.

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
from dataclasses import dataclass  # scaffolding: tinygp.helpers.dataclass stand-in
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@dataclass
class GeneralQSM:  # scaffolding: tinygp.solvers.quasisep.general.GeneralQSM reduced to a dense product
    pl: jax.Array
    ql: jax.Array
    pu: jax.Array
    qu: jax.Array
    a: jax.Array
    idx: jax.Array

    def __matmul__(self, y):
        lower = jnp.einsum("ni,ni->n", self.pl, self.ql[jnp.clip(self.idx, 0, self.ql.shape[0] - 1)])
        return lower * y[jnp.clip(self.idx, 0, y.shape[0] - 1)] + 0.0 * jnp.sum(self.a)


@dataclass
class Matern32:
    scale: jax.Array
    sigma: jax.Array = 1.0

    def coord_to_sortable(self, X):
        return X

    def stationary_covariance(self):
        return jnp.diag(jnp.array([1, 3 / jnp.square(self.scale)]))

    def observation_model(self, X):
        return jnp.array([self.sigma, 0])

    def transition_matrix(self, X1, X2):
        dt = X2 - X1
        f = np.sqrt(3) / self.scale
        return jnp.exp(-f * dt) * jnp.array(
            [[1 + f * dt, -jnp.square(f) * dt], [dt, 1 - f * dt]]
        )

    def to_general_qsm(self, X1, X2) -> GeneralQSM:
        """The generalized quasiseparable representation of this kernel"""
        sortable = jax.vmap(self.coord_to_sortable)
        idx = jnp.searchsorted(sortable(X2), sortable(X1), side="right") - 1

        Xs = jax.tree_util.tree_map(lambda x: np.append(x[0], x[:-1]), X2)
        Pinf = self.stationary_covariance()
        a = jax.vmap(self.transition_matrix)(Xs, X2)
        h1 = jax.vmap(self.observation_model)(X1)
        h2 = jax.vmap(self.observation_model)(X2)

        ql = h2
        pl = h1 @ Pinf
        qu = h1
        pu = h2 @ Pinf

        i = jnp.clip(idx, 0, ql.shape[0] - 1)
        Xi = jax.tree_util.tree_map(lambda x: jnp.asarray(x)[i], X2)
        pl = jax.vmap(jnp.dot)(pl, jax.vmap(self.transition_matrix)(Xi, X1))

        i = jnp.clip(idx + 1, 0, pu.shape[0] - 1)
        Xi = jax.tree_util.tree_map(lambda x: jnp.asarray(x)[i], X2)
        qu = jax.vmap(jnp.dot)(jax.vmap(self.transition_matrix)(X1, Xi), qu)

        return GeneralQSM(pl=pl, ql=ql, pu=pu, qu=qu, a=a, idx=idx)

    def matmul(self, X1, X2=None, y=None):
        return self.to_general_qsm(X1, X2) @ y


class GaussianProcess:  # scaffolding: tinygp.GaussianProcess reduced to the X_test branch of _condition
    def __init__(self, kernel, X):
        self.kernel = kernel
        self.X = jnp.asarray(X)
        self.loc = 0.0

    def predict(self, y, X_test):
        return self._condition(y, X_test, True)

    @partial(jax.jit, static_argnums=(0, 3))
    def _condition(self, y, X_test, include_mean, kernel=None):
        alpha = y - self.loc  # scaffolding: stands in for the quasisep solver's K^-1 y
        if kernel is None:
            kernel = self.kernel
        mean_value = kernel.matmul(X_test, self.X, alpha)
        if include_mean:
            mean_value += self.loc
        return alpha, mean_value


# scaffolding: the reporter's setup, predictions at a non-default X_test with JAX arrays
X = jnp.linspace(0.0, 10.0, 100)
y = jnp.sin(X)
gp = GaussianProcess(Matern32(scale=1.5), X)
calls = 0
try:
    for X_test in (jnp.linspace(0.0, 10.0, 46), jnp.linspace(1.0, 9.0, 46)):
        gp.predict(y, X_test)
        calls += 1
    _report({"jit(_condition)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
