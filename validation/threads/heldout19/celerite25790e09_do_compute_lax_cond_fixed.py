# source: https://github.com/exoplanet-dev/celerite2/commit/5790e0989691c68a3851f774f6900ac17aee2132
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit selects the bad/good branch with lax.cond, so the jitted likelihood traces and compiles once for 3 calls.
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

from jax import numpy as np
from jax import lax
import jax  # scaffolding


class ops:  # scaffolding: dense stand-ins for celerite2.jax.ops (the XLA extension is not installed)
    @staticmethod
    def factor(t, c, a, U, V):
        K = np.diag(a) + np.exp(-c[0] * np.abs(t[:, None] - t[None, :]))
        L = np.linalg.cholesky(K)
        return np.diag(L) ** 2, L


class BaseGaussianProcess:  # scaffolding: the parts of celerite2.core.BaseGaussianProcess used here
    def __init__(self, c=1.0):
        self._c_val = c

    def compute(self, t, yerr, quiet=False):
        self._t = self._check_sorted(self._as_tensor(t))
        self._size = self._t.shape[0]
        self._a = 1.0 + yerr**2 + self._zeros_like(self._t)
        self._c = np.array([self._c_val])
        self._U = self._V = None
        self._do_compute(quiet)

    def log_likelihood(self, y):
        L = self._W
        z = jax.scipy.linalg.solve_triangular(L, y, lower=True)
        return self._norm - 0.5 * np.sum(z**2)


class GaussianProcess(BaseGaussianProcess):
    def _as_tensor(self, tensor):
        return np.asarray(tensor, dtype=np.float64)

    def _zeros_like(self, tensor):
        return np.zeros_like(tensor)

    def _do_compute(self, quiet):
        self._d, self._W = ops.factor(
            self._t, self._c, self._a, self._U, self._V
        )
        self._log_det = np.sum(np.log(self._d))

        def _bad(_):
            return -np.inf, np.inf

        def _good(_):
            return self._log_det, -0.5 * (
                self._log_det + self._size * np.log(2 * np.pi)
            )

        bad = np.any(self._d <= 0) | (~np.isfinite(self._log_det))
        self._log_det, self._norm = lax.cond(bad, _bad, _good, operand=None)

    def _check_sorted(self, t):
        return t


t = np.linspace(0, 10, 50)  # scaffolding
y = np.sin(t)  # scaffolding


@jax.jit  # scaffolding: a jitted log-likelihood in the yerr parameter, as in a numpyro/optimizer loop
def loglike(yerr):
    gp = GaussianProcess()
    gp.compute(t, yerr)
    return gp.log_likelihood(y)


try:  # scaffolding
    for yerr in (0.1, 0.2, 0.3):  # scaffolding
        ll = loglike(yerr)
    _report({"jit(loglike)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
