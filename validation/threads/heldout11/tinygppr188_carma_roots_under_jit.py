# source: https://github.com/dfm/tinygp/pull/188
# expect: trace-time-error at line 91; trace-time-error at line 120
# runtime: ERROR ConcretizationTypeError
# why: CARMA.init finds the AR roots with jnp.roots(...) at its default strip_zeros=True, whose output size depends on the coefficient values, so building the kernel inside jit (e.g. from sampled alpha/beta) fails; the same init also applies np.roll to a traced array.

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
import dataclasses  # scaffolding
from typing import Any  # scaffolding

import jax  # scaffolding
import jax.numpy as jnp
import numpy as np

JAXArray = Any  # scaffolding: tinygp.helpers.JAXArray


@dataclasses.dataclass(frozen=True)  # scaffolding: tinygp.helpers.dataclass (a frozen dataclass registered as a pytree)
class CARMA:  # scaffolding: base class Quasisep dropped
    r"""A continuous autoregressive moving average (CARMA) process

    This process has the power spectrum

    .. math::

        P(\omega) = \sigma^2\,\frac{\sum_{q} \beta_q\,(i\,\omega)^q}{\sum_{p}
            \alpha_p\,(i\,\omega)^p}

    defined following `Kelly et al. (2014) <https://arxiv.org/abs/1402.5978>`_.

    Unlike other kernels, this *must* be instatiated using the :func:`init`
    method instead of the usual constructor:

    .. code-block:: python

        kernel = CARMA.init(alpha=..., beta=..., sigma=...)
    """
    alpha: JAXArray
    beta: JAXArray
    sigma: JAXArray
    roots: JAXArray
    proj: JAXArray
    proj_inv: JAXArray
    stn: JAXArray

    @classmethod
    def init(
        cls, alpha: JAXArray, beta: JAXArray, sigma: "JAXArray | None" = None  # scaffolding: quoted annotation
    ) -> "CARMA":  # scaffolding: quoted (the module used from __future__ import annotations)
        r"""Construct a CARMA kernel

        Args:
            alpha: The parameter :math:`\alpha` in the definition above. This
                should be an array of length ``p``.
            beta: The parameter :math:`\beta` in the definition above. This
                should be an array of length ``q``, where ``q <= p``.
            sigma: The parameter :math:`\sigma` in the definition above.
        """
        sigma = jnp.ones(()) if sigma is None else sigma
        alpha = jnp.atleast_1d(alpha)
        beta = jnp.atleast_1d(beta)
        assert alpha.ndim == 1
        assert beta.ndim == 1
        p = alpha.shape[0]
        assert beta.shape[0] <= p

        # We find the roots of the autoregressive polynomial as a means to find
        # the eigendecomposition of the design matrix.
        alpha_ext = jnp.append(alpha, 1.0)
        roots = jnp.roots(alpha_ext[::-1])
        proj = roots[:, None] ** jnp.arange(p)[None, :]
        proj_inv = jnp.linalg.inv(proj)

        # Compute the stationary covariance - there is almost certainly a more
        # elegant way, but this works! I worked this out kind of by trial and
        # error using sympy. There is a lot of known structure in the P_inf
        # matrix that can be exploited to "simplify" this calculation.
        # Specifically, there are only `p` degrees of freedom, and P_inf has the
        # following structure:
        #
        #   P_inf = [
        #     [ p0   0   -p1   0    p2 ]
        #     [ 0    p1   0   -p2   0  ]
        #     [-p1   0    p2   0   -p3 ]
        #     [ 0   -p2   0    p3   0  ]
        #     [ p2   0   -p3   0    p4 ]
        #   ]
        #
        # Using this structure, we get can solve the usual:
        #
        #  A @ P + P @ A.T + L @ L.T = 0
        #
        # for `P`, and we get something like the following. Kelly et al. (2104)
        # also have an expression for this (their V_{ij}), but I prefer to use
        # this since it is probably roughly just as fast to compute, and it is
        # strictly real-valued.
        f = 2 * ((np.arange(2 * p) // 2) % 2) - 1
        x = f * jnp.append(alpha_ext, jnp.zeros(p - 1))
        params = jnp.stack([np.roll(x, k)[::2] for k in range(p)], axis=0)
        params = jnp.linalg.solve(params, 0.5 * sigma**2 * jnp.eye(p, 1, k=-p + 1))[
            :, 0
        ]
        stn_ = []
        for j in range(p):
            stn_.append([jnp.zeros(()) for _ in range(p)])
            for n, k in enumerate(range(j - 2, -1, -2)):
                stn_[-1][k] = (2 * (n % 2) - 1) * params[j - n - 1]
            for n, k in enumerate(range(j, p, 2)):
                stn_[-1][k] = (1 - 2 * (n % 2)) * params[n + j]
        stn = jnp.array(list(map(jnp.stack, stn_)))

        return cls(
            sigma=sigma,
            alpha=alpha,
            beta=beta,
            roots=roots,
            proj=proj,
            proj_inv=proj_inv,
            stn=stn,
        )

    def design_matrix(self) -> JAXArray:
        p = self.alpha.shape[0]
        return jnp.concatenate((jnp.eye(p - 1, p, k=1), -self.alpha[None]))

    def stationary_covariance(self) -> JAXArray:
        return self.stn

    def observation_model(self, X: JAXArray) -> JAXArray:
        return jnp.append(
            self.beta, jnp.zeros(self.alpha.shape[0] - self.beta.shape[0])
        )

    def transition_matrix(self, X1: JAXArray, X2: JAXArray) -> JAXArray:
        dt = X2 - X1
        return (self.proj_inv @ (jnp.exp(self.roots * dt)[:, None] * self.proj)).real


@jax.jit  # scaffolding
def carma_stn(alpha, beta):  # scaffolding
    return CARMA.init(alpha=alpha, beta=beta).stationary_covariance()  # scaffolding


alpha = jnp.array([0.6, 1.2])  # scaffolding
beta = jnp.array([1.0, 0.3])  # scaffolding
print(CARMA.init(alpha=alpha, beta=beta).stationary_covariance())  # scaffolding: eager init works
try:  # scaffolding
    print(carma_stn(alpha, beta))  # scaffolding
    print(carma_stn(alpha * 1.1, beta))  # scaffolding
    _report({"jit(carma_stn)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
