# source: https://github.com/NIFTy-PPL/NIFTy/commit/f31d0eda6ba3dee20fe8fd090e00af3bacae16a8
# expect: changing-static at line 51
# runtime: COMPILES 4 CALLS 4
# why: get_covariance_kernel_interpolator wraps a locally defined cov_fn in jax.tree_util.Partial; the function is part of the Partial's static tree structure and is a new object on every call, so the jitted consumer recompiles for each of the 4 kernels.

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


import jax
import jax.numpy as jnp


# nifty/re/multi_grid/matern.py
class MaternCovarianceKernel:  # cut down to the interpolator; the power-spectrum table is scaffolding
    def __init__(self, jitter=1e-6):  # scaffolding
        self.jitter = jitter
        self.cov_rs_no_zero = jnp.linspace(0.05, 5.0, 100)

    def get_covariance_kernel_pair(self, variance, lengthscale, negloglogslope, kcutoff):  # scaffolding: a Matern-like table
        cov_rs = jnp.append(0.0, self.cov_rs_no_zero)
        cov_vals = (1.0 + cov_rs / lengthscale) * jnp.exp(-cov_rs / lengthscale)
        cov_vals *= variance
        return (cov_rs, cov_vals)

    def get_covariance_kernel_interpolator(
        self, variance, lengthscale, negloglogslope, kcutoff
    ):
        cov_rs, cov_vals = self.get_covariance_kernel_pair(
            variance, lengthscale, negloglogslope, kcutoff
        )

        def cov_fn(r, _variance, _cov_rs, _cov_vals, _jitter):
            return jnp.where(
                r == 0.0,
                _variance * (1.0 + _jitter) * jnp.ones_like(r),
                jnp.interp(r, _cov_rs, _cov_vals),
            )

        return jax.tree_util.Partial(
            cov_fn,
            _variance=variance,
            _cov_rs=cov_rs[1:],
            _cov_vals=cov_vals[1:],
            _jitter=self.jitter,
        )


@jax.jit
def gram(cov_fn, xs):  # scaffolding: a jitted consumer of the returned kernel (e.g. a Gram matrix)
    r = jnp.abs(xs[:, None] - xs[None, :])
    return cov_fn(r)


kernel = MaternCovarianceKernel()  # scaffolding: kernel rebuilt for each new lengthscale, as in an optimisation loop
xs = jnp.linspace(0.0, 3.0, 32)
calls = 0
for lengthscale in (0.5, 0.6, 0.7, 0.8):
    cov_fn = kernel.get_covariance_kernel_interpolator(1.0, lengthscale, 2.0, 10.0)
    K = gram(cov_fn, xs)
    calls += 1
_report({"jit(gram)"}, calls)
