# source: https://github.com/viperleed/viperleed-jax/commit/126fb20b01ddec96d3e6159281cd198d54db10ba
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: get_bspline_coeffs and evaluate_spline take the whole StaticNotAKnotSplineInterpolator (holding numpy/jax arrays) as a static argument; the class has no __eq__/__hash__, so it is hashed by identity, and reusing one interpolator for two curves compiles each function once (2 compiles, 4 calls).
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


"""Module interpolation

This module is a reworking of scipy's and my Bspline interpolation methods.
It can interpolate functions efficiently and in a JAX-compatible way."""
from abc import ABC, abstractmethod
from functools import partial

import numpy as np
import jax
from jax import numpy as jnp
from scipy import interpolate
import types  # scaffolding
import scipy.interpolate._dierckx as _dierckx  # scaffolding
_jnp_clip = jnp.clip  # scaffolding
jnp.clip = lambda a, a_min=None, a_max=None: _jnp_clip(a, min=a_min, max=a_max)  # scaffolding: jax 0.10 removed the a_min/a_max keywords


def _colloc_shim(x, t, k, ab, offset=0):  # scaffolding: scipy 1.17 moved _bspl._colloc to _dierckx._coloc,
    _dierckx._coloc(x, t, k, ab.T, offset)  # scaffolding: which takes the transposed (C-ordered) band matrix, as make_interp_spline does


interpolate._bspl = types.SimpleNamespace(_colloc=_colloc_shim, evaluate_all_bspl=_dierckx.evaluate_all_bspl)  # scaffolding: scipy 1.17 moved these private helpers out of interpolate._bspl


class StaticGridSplineInterpolator(ABC):
    def __init__(self, origin_grid, target_grid, intpol_deg):
        self.origin_grid = origin_grid
        self.target_grid = target_grid
        self.intpol_deg = intpol_deg
        self.knots = self._get_knots()
        self.intervals = self._find_intervals()
        # TODO: If we find a suitable solver, we could also use the banded
        # and pre-factorized collocation matrix

        # calculate De Boor coefficients
        self.de_boor_coeffs = {
            deriv_order: self._calc_de_boor_coeffs(deriv_order)
            for deriv_order in range(intpol_deg)
        }

        # calcualte collocation matrix
        self.full_colloc_matrix = self.calculate_colloc_matrix()

        # Invert collocation matrix – this reduces the B-spline interpolation
        # to a simple matrix- vector multiplication
        self.inv_colloc_matrix = jnp.linalg.inv(self.full_colloc_matrix)

    def is_compatible(self, other):
        if not isinstance(other, type(self)):
            return False
        return (jnp.all(self.target_grid == other.target_grid) and
                self.intpol_deg == other.intpol_deg)

    @abstractmethod
    def _get_knots(self):
        raise NotImplementedError

    def _calc_de_boor_coeffs(self, deriv_order):
        """Calculate the De Boor coeffs for the given knots and target grid"""
        de_boor_coeffs = np.zeros((self.intpol_deg + 1, self.target_grid.size))
        for i, (interval, new_x) in enumerate(
            zip(self.intervals, self.target_grid)):
            beta_coeffs = interpolate._bspl.evaluate_all_bspl(
                self.knots,
                self.intpol_deg,
                new_x,
                interval,
                deriv_order)
            de_boor_coeffs[:, i] = beta_coeffs
        return de_boor_coeffs

    def _find_intervals(self):
        """Return index of interval in knots that contains x_val"""
        # raise if knots are not sorted
        if not jnp.all(self.knots[:-1] <= self.knots[1:]):
            raise ValueError('knots must be sorted')
        intervals = jnp.clip(jnp.searchsorted(self.knots,
                                              self.target_grid,
                                              side='left'),
                        a_min=self.intpol_deg + 1,
                        a_max=self.knots.size - self.intpol_deg - 1) - 1
        return intervals

    def _banded_colloc_matrix_to_full(self, banded_colloc_matrix):
        kl = self.intpol_deg
        center_row = 2*kl
        full_matrix = np.diag(banded_colloc_matrix[center_row,:])
        for k in range(1, kl+1):
            full_matrix += np.diag(banded_colloc_matrix[center_row-k,k:], k)
            full_matrix += np.diag(banded_colloc_matrix[center_row+k,:-k], -k)
        return full_matrix


class StaticNotAKnotSplineInterpolator(StaticGridSplineInterpolator):
    def _get_knots(self):
        return interpolate._bsplines._not_a_knot(self.origin_grid, self.intpol_deg)

    def calculate_colloc_matrix(self):
        # number of derivatives at boundaries (not-a-knot bc)
        deriv_l = None
        deriv_l_ords, deriv_l_vals = interpolate._bsplines._process_deriv_spec(deriv_l)
        deriv_r = None
        deriv_r_ords, deriv_r_vals = interpolate._bsplines._process_deriv_spec(deriv_r)

        nleft = deriv_l_ords.shape[0]
        nright = deriv_r_ords.shape[0]

        # basic collocation matrix
        kl = ku = self.intpol_deg
        nt = self.knots.size - self.intpol_deg - 1
        banded_colloc_matrix = np.zeros((2*kl + ku + 1, nt), dtype=np.float64, order='F')
        interpolate._bspl._colloc(np.array(self.origin_grid, dtype=np.float64),
                    np.array(self.knots, dtype=np.float64),
                    self.intpol_deg, banded_colloc_matrix)

        # derivatives at boundaries
        if nleft > 0:
            interpolate._bspl._handle_lhs_derivatives(
                self.knots,
                self.intpol_deg,
                self.origin_grid[0], 
                banded_colloc_matrix, kl, ku,
                deriv_l_ords.astype(np.dtype("long")))
        if nright > 0:
            interpolate._bspl._handle_lhs_derivatives(
                self.knots,
                self.intpol_deg,
                self.origin_grid[-1],
                banded_colloc_matrix, kl, ku,
                deriv_r_ords.astype(np.dtype("long")),
                offset=nt-nright)

        # get full collocation matrix
        return self._banded_colloc_matrix_to_full(banded_colloc_matrix)

# TODO: The below functions could (and probably should be) interpolator class
#       methods. However, we need to figure out how to make this work with JAX.

@partial(jax.jit, static_argnames=('interpolator',))
def get_bspline_coeffs(interpolator, rhs):
    """Return the coefficients of the B-spline interpolant.

    Solves the linear system lhs * coeffs = rhs for coeffs."""
    # TODO: we could do this more efficiently. One easy improvement would be to
    # pre-factorize lhs by splitting .solve() into .lu_factor() and .lu_solve()
    # parts. Only the solve part depends on the right hand side.
    spline_coeffs = interpolator.inv_colloc_matrix @ rhs
    return spline_coeffs

@jax.jit
def not_a_knot_rhs(values):
    values = jnp.asarray(values)
    return values


@partial(jax.jit, static_argnames=('interpolator', 'deriv_order'))
def evaluate_spline(spline_coeffs, interpolator, deriv_order=0):
    """Evaluate the spline using the De Boor coefficients and the B-spline coefficients"""
    # Extract the relevant coefficients for each interval
    lower_indices = interpolator.intervals - interpolator.intpol_deg
    coeff_indices = lower_indices.reshape(-1,1) + jnp.arange(interpolator.intpol_deg+1)
    coeff_subarrays = spline_coeffs[coeff_indices]
    coeff_subarrays = coeff_subarrays.reshape(-1, interpolator.intpol_deg+1) # remove tailing 1 dimension

    # Element-wise multiplication between coefficients and de_boor values, sum over basis functions
    return jnp.einsum('ij,ji->i',
                      coeff_subarrays,
                      interpolator.de_boor_coeffs[deriv_order])


# TODO: implement natural knot interpolator
## Natural knots spline boundary condition – currently unused – 
def get_natural_knots(x, deg):
    knots = np.concatenate(
        [np.full(shape=(deg,), fill_value=x[0]),
         x,
         np.full(shape=(deg,), fill_value=x[-1])])
    return knots


def natural_derivative_bc(deg):
    _supported_degrees = (3, 5)

    if deg == 3:
        derivs_l_ord = np.array([2])
        derivs_l_val = np.array([0])
        
        derivs_r_ord = np.array([2])
        derivs_r_val = np.array([0])

    elif deg == 5:
        derivs_l_ord = np.array([3, 4])
        derivs_l_val = np.array([0, 0])
        
        derivs_r_ord = np.array([3, 4])
        derivs_r_val = np.array([0, 0])

    else:
        raise ValueError(f"unsupported degree {deg}")
    return derivs_l_ord, derivs_l_val, derivs_r_ord, derivs_r_val


# --- scaffolding: one interpolator for a 12-point energy grid onto 30 points, used for two curves ---
origin_grid = np.linspace(0.0, 1.0, 12)  # scaffolding
target_grid = np.linspace(0.0, 1.0, 30)  # scaffolding
try:  # scaffolding
    interpolator = StaticNotAKnotSplineInterpolator(origin_grid, target_grid, 3)  # scaffolding
    for values in (np.sin(3 * origin_grid), np.cos(3 * origin_grid)):  # scaffolding: e.g. two beams on the same energy grid
        rhs = not_a_knot_rhs(values)  # scaffolding
        spline_coeffs = get_bspline_coeffs(interpolator, rhs)  # scaffolding
        interpolated = evaluate_spline(spline_coeffs, interpolator)  # scaffolding
    print(np.round(np.asarray(interpolated)[:4], 4))  # scaffolding
    _report({"jit(get_bspline_coeffs)", "jit(evaluate_spline)"}, 4)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
