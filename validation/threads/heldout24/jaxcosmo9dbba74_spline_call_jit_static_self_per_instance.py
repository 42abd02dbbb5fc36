# source: https://github.com/DifferentiableUniverseInitiative/jax_cosmo/commit/9dbba7482541d7b89cd31a9f9f51114b2471b64c
# expect: changing-static at line 98
# runtime: COMPILES 5 CALLS 5
# why: __call__ is jitted with self as the static argument, hashed by identity, so each new spline (one per parameter value in an eager loop) is a new static value and __call__ compiles again: 5 compiles for 5 splines of identical shapes.

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


# --- jax_cosmo/scipy/interpolate.py (before the commit; the long docstring, k=2 branch and derivative/antiderivative cut) ---
import functools
import jax.numpy as np
from jax.numpy import zeros, ones, array, concatenate
from jax import jit
from jax import vmap
from jax import grad


class InterpolatedUnivariateSpline(object):
    def __init__(self, x, y, k, endpoints="not-a-knot"):
        """JAX implementation of kth-order spline interpolation."""
        # Verify inputs
        k = int(k)
        assert k in (1, 2, 3), "Order k must be in {1, 2, 3}."
        x = np.atleast_1d(x)
        y = np.atleast_1d(y)
        assert len(x) == len(y), "Input arrays must be the same length."
        assert x.ndim == 1 and y.ndim == 1, "Input arrays must be 1D."
        n_data = len(x)

        # Difference vectors
        h = np.diff(x)  # x[i+1] - x[i] for i=0,...,n-1
        p = np.diff(y)  # y[i+1] - y[i]

        # Build the linear system of equations depending on k
        # (No matrix necessary for k=1)
        if k == 1:
            assert n_data > 1, "Not enough input points for linear spline."
            self._b = p / h

        if k == 3:
            assert n_data > 3, "Not enough input points for cubic spline."

            if endpoints not in ("natural", "not-a-knot"):
                print("Warning : endpoints not recognized. Using natural.")
                endpoints = "natural"

            # Special values for the first and last equations
            zero = array([0.])
            one = array([1.])
            A00 = one if endpoints == "natural" else array([h[1]])
            A01 = zero if endpoints == "natural" else array([-(h[0] + h[1])])
            A02 = zero if endpoints == "natural" else array([h[0]])
            ANN = one if endpoints == "natural" else array([h[-2]])
            AN1 = -one if endpoints == "natural" else array([-(h[-2] + h[-1])])  # A[N, N-1]
            AN2 = zero if endpoints == "natural" else array([h[-1]])  # A[N, N-2]

            # Construct the tri-diagonal matrix A
            A = np.diag(concatenate((A00, 2 * (h[:-1] + h[1:]), ANN)))
            upper_diag1 = np.diag(concatenate((A01, h[1:])), k=1)
            upper_diag2 = np.diag(concatenate((A02, zeros(n_data - 3))), k=2)
            lower_diag1 = np.diag(concatenate((h[:-1], AN1)), k=-1)
            lower_diag2 = np.diag(concatenate((zeros(n_data - 3), AN2)), k=-2)
            A += upper_diag1 + upper_diag2 + lower_diag1 + lower_diag2

            # Construct RHS vector s
            center = 3 * (p[1:] / h[1:] - p[:-1] / h[:-1])
            s = concatenate((zero, center, zero))

            # Compute spline coefficients by solving the system
            self._c = np.linalg.solve(A, s)

        # Save for evaluations
        self.k = k
        self.x = x
        self._h = h
        self.y = y
        self.n_data = n_data

    @functools.partial(jit, static_argnums=(0,))
    def __call__(self, x):
        """Jitted evaluation of the spline.

        Notes
        -----
        Values are extrapolated if x is outside of the original domain
        of knots. If x is less than the left-most knot, the spline piece
        f[0] is used for the evaluation; similarly for x beyond the
        right-most point.

        """
        if self.k == 1:
            t, a, b = self._compute_coeffs(x)
            result = a + b * t

        if self.k == 3:
            t, a, b, c, d = self._compute_coeffs(x)
            result = a + b * t + c * np.power(t, 2) + d * np.power(t, 3)

        return result

    @functools.partial(jit, static_argnums=(0,))
    def _compute_coeffs(self, x):
        """Compute the spline coefficients for a given x."""
        # Determine the interval that x lies in
        ind = np.digitize(x, self.x) - 1
        # Include the right endpoint in spline piece C[m-1]
        ind = np.clip(ind, 0, self.n_data - 2)

        t = x - self.x[ind]
        a = self.y[ind]

        if self.k == 1:
            result = (t, a, self._b[ind])

        if self.k == 3:
            # Necessities
            h = self._h[ind]
            a1 = self.y[ind + 1]
            c = self._c[ind]
            c1 = self._c[ind + 1]

            # Remaining coefficients of the spline
            b = (a1 - a) / h - (2 * c + c1) * h / 3.
            d = (c1 - c) / (3 * h)

            result = (t, a, b, c, d)

        return result


# --- driver: a new spline of a tabulated function for each parameter value, as in a likelihood loop --- scaffolding
import jax  # scaffolding
agrid = np.linspace(0.05, 1.0, 32)  # scaffolding: scale factor grid
aq = np.linspace(0.1, 0.95, 7)  # scaffolding
for Om in (0.25, 0.28, 0.30, 0.32, 0.35):  # scaffolding: e.g. one growth-like table per cosmology
    table = agrid ** (Om ** 0.55 * 1.8)  # scaffolding
    spline = InterpolatedUnivariateSpline(agrid, table, k=3)  # scaffolding
    values = spline(aq)  # scaffolding
print(values)  # scaffolding
_report({"jit(__call__)"}, 5)  # scaffolding
