# source: https://github.com/ma-gilles/chebfunjax/blob/a63803c46db8cf4557a84b55b892379927792953/tests/test_integration/test_readme_examples.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The README test builds jax.jit(lambda x: f(x)) inside the test body and calls it once; the lambda wrapper is fresh per call of the test, but the test runs once, so there is exactly one compile and nothing repeats.

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
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)  # (chebfunjax/__init__.py)


def _clenshaw(coeffs: jax.Array, x: jax.Array) -> jax.Array:
    """Evaluate a Chebyshev series at point(s) x via Clenshaw's algorithm (docstring trimmed)."""
    n = coeffs.shape[0]

    # Array-valued series: coeffs (n, m) evaluated at x (...,) gives
    # values of shape x.shape + (m,) -- the recurrence broadcasts a
    # trailing column axis (Fable 5 array-valued support).
    multi = coeffs.ndim == 2
    if multi:
        x = jnp.asarray(x)[..., None]      # (..., 1) vs (n, m) rows

    # Edge cases
    if n == 0:
        return jnp.zeros_like(x, dtype=jnp.float64)
    if n == 1:
        if multi:
            return jnp.broadcast_to(
                coeffs[0], x.shape[:-1] + coeffs.shape[1:])
        return jnp.broadcast_to(coeffs[0], x.shape)

    x2 = 2.0 * x

    # Clenshaw recurrence from the top.
    # We use lax.fori_loop for JIT friendliness.
    # State: (bk1, bk2)  — one step behind and two steps behind.
    def body(i, state):
        bk1, bk2 = state
        # k = n - 1 - i  (we iterate i = 0..n-2)
        k = n - 1 - i
        bk = coeffs[k] + x2 * bk1 - bk2
        return (bk, bk1)

    # Carry dtype must match the series dtype (complex chebfuns give a
    # complex recurrence; a float64 carry breaks the lax scan/loop typing).
    out_dtype = jnp.result_type(coeffs.dtype, x.dtype)
    carry_shape = jnp.broadcast_shapes(
        x.shape, coeffs.shape[1:] if multi else ())
    init = (
        jnp.zeros(carry_shape, dtype=out_dtype),
        jnp.zeros(carry_shape, dtype=out_dtype),
    )
    bk1, bk2 = jax.lax.fori_loop(0, n - 1, body, init)

    # Final step: f(x) = c[0] + x*bk1 - bk2
    return coeffs[0] + x * bk1 - bk2


class Chebtech2(eqx.Module):
    """Chebyshev interpolant on 2nd-kind points (constructors and methods trimmed)."""

    coeffs: jax.Array
    ishappy: bool = eqx.field(static=True, default=True)

    # ------------------------------------------------------------------
    # Evaluation
    # ------------------------------------------------------------------

    @eqx.filter_jit
    def __call__(self, x: jax.Array) -> jax.Array:
        """Evaluate the Chebyshev interpolant at point(s) x in [-1, 1].

        Uses Clenshaw's algorithm.

        Notes
        -----
        This method is JIT-safe, grad-safe, and vmap-safe.
        """
        # Preserve a complex argument (MATLAB evaluates a real Chebyshev
        # series at complex points via Clenshaw with a complex recurrence);
        # everything else is promoted to float64.
        x = jnp.asarray(x)
        if jnp.issubdtype(x.dtype, jnp.complexfloating):
            x = x.astype(jnp.complex128)
        else:
            x = x.astype(jnp.float64)
        return _clenshaw(self.coeffs, x)


import numpy.polynomial.chebyshev as _ncheb  # scaffolding
import numpy.testing as npt  # scaffolding


class TestReadmeJAXFeatures:
    """README: JIT, grad, vmap examples."""

    def test_jit_evaluation(self):
        """jax.jit(lambda x: f(x)) works."""
        f = Chebtech2(jnp.asarray(_ncheb.chebinterpolate(np.sin, 16)))  # scaffolding: stands in for cj.chebfun(jnp.sin)
        fast_f = jax.jit(lambda x: f(x))
        val = fast_f(jnp.array(0.5))
        npt.assert_allclose(float(val), float(jnp.sin(0.5)), rtol=1e-12)


TestReadmeJAXFeatures().test_jit_evaluation()  # scaffolding: pytest runs it once
_report({"jit(<lambda>)", "jit(__call__)"}, 1)
