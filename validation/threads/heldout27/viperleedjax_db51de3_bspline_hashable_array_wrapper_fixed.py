# source: https://github.com/viperleed/viperleed-jax/commit/db51de31bf5daa0db9284ac49a50855109fceb6b
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: after the commit the static arrays are wrapped in HashableArray (hash of the bytes, value equality) and np.einsum became jnp.einsum, so two curves on the same grids compile get_bspline_coeffs and evaluate_spline once each (2 compiles, 4 calls).
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
from functools import partial

import numpy as np
import jax
from jax import numpy as jnp
from scipy import interpolate
import types  # scaffolding
import scipy.interpolate._dierckx as _dierckx  # scaffolding
def _colloc_shim(x, t, k, ab, offset=0):  # scaffolding: scipy 1.17 moved _bspl._colloc to _dierckx._coloc,
    _dierckx._coloc(x, t, k, ab.T, offset)  # scaffolding: which takes the transposed (C-ordered) band matrix, as make_interp_spline does


_jnp_clip = jnp.clip  # scaffolding
jnp.clip = lambda a, a_min=None, a_max=None: _jnp_clip(a, min=a_min, max=a_max)  # scaffolding: jax 0.10 removed the a_min/a_max keywords


interpolate._bspl = types.SimpleNamespace(_colloc=_colloc_shim, evaluate_all_bspl=_dierckx.evaluate_all_bspl)  # scaffolding: scipy 1.17 moved these private helpers out of interpolate._bspl

# from hashable_array import HashableArray  # scaffolding: the module is inlined below
# --- src/hashable_array.py ---
def simple_sum_hash(x):
  return hash(x.tobytes())

class HashableArray:
  def __init__(self, val):
    self.val = val
  def __hash__(self):
    return simple_sum_hash(self.val)
  def __eq__(self, other):
    return (isinstance(other, HashableArray) and
            jnp.all(jnp.equal(self.val, other.val)))
# --- end of src/hashable_array.py ---

def find_interval(knots, x_val, intpol_deg):
    """Return index of interval in knots that contains x_val"""
    # raise if knots are not sorted
    if not jnp.all(knots[:-1] <= knots[1:]):
        raise ValueError('knots must be sorted')
    intervals = jnp.clip(jnp.searchsorted(knots, x_val, side='left'),
                    a_min=intpol_deg + 1,
                    a_max=knots.size - intpol_deg - 1) - 1
    return HashableArray(intervals)


@partial(jax.jit, static_argnames=('lhs',))
def get_bspline_coeffs(lhs, rhs):
    """Return the coefficients of the B-spline interpolant.

    Solves the linear system lhs * coeffs = rhs for coeffs."""
    # TODO: we could do this more efficiently. One easy improvement would be to
    # pre-factorize lhs by splitting .solve() into .lu_factor() and .lu_solve()
    # parts. Only the solve part depends on the right hand side.
    spline_coeffs = jnp.linalg.inv(lhs.val) @ rhs
    return spline_coeffs


@jax.jit
def not_a_knot_rhs(values):
    values = jnp.asarray(values)
    return values.reshape(-1, 1)


def calc_de_boor(knots, target_grid, deriv_order, intpol_deg):
    """Calculate the De Boor coefficients for the given knots and target grid"""
    de_boor_coeffs = np.zeros((intpol_deg + 1, target_grid.size))
    intervals = find_interval(knots, target_grid, intpol_deg)
    for i, (interval, new_x) in enumerate(zip(intervals.val, target_grid)):
        beta_coeffs = interpolate._bspl.evaluate_all_bspl(knots,
                                                          intpol_deg,
                                                          new_x,
                                                          interval,
                                                          deriv_order)
        de_boor_coeffs[:, i] = beta_coeffs
    return HashableArray(de_boor_coeffs)


@partial(jax.jit, static_argnames=('de_boor_coeffs', 'intervals', 'intpol_deg',))
def evaluate_spline(spline_coeffs, de_boor_coeffs, intervals, intpol_deg):
    """Evaluate the spline using the De Boor coefficients and the B-spline coefficients"""
    # Extract the relevant coefficients for each interval
    lower_indices = intervals.val - intpol_deg
    coeff_indices = lower_indices.reshape(-1,1) + jnp.arange(intpol_deg+1)
    coeff_subarrays = spline_coeffs[coeff_indices]
    coeff_subarrays = coeff_subarrays.reshape(-1, intpol_deg+1) # remove tailing 1 dimension

    # Element-wise multiplication between coefficients and de_boor values, sum over basis functions
    return jnp.einsum('ij,ji->i', coeff_subarrays, de_boor_coeffs.val)


## Set up left hand side (LHS)
def set_up_knots_and_lhs(original_grid, intpol_deg,
               boundary_condition='not-a-knot'):
    """Taken mostly from scipy interpolate.py, with some modifications"""
    if boundary_condition != 'not-a-knot':
        raise NotImplementedError("Only not-a-knot boundary conditions"
                                  "are currently supported")

    knots, colloc_matrix = _knots_and_colloc_matrix_not_a_knot(
        original_grid, intpol_deg)

    full_colloc_matrix = _banded_colloc_matrix_to_full(colloc_matrix,
                                                       intpol_deg)
    full_colloc_matrix = HashableArray(jnp.asarray(full_colloc_matrix))

    # we can now determine the coefficients by solving the linear system
    return knots, full_colloc_matrix


def _knots_and_colloc_matrix_not_a_knot(original_grid, intpol_deg):
    """Return the knots and collocation matrix for a given grid and degree"""
    # get the knots (not-a-knot bc)
    knots = interpolate._bsplines._not_a_knot(original_grid, intpol_deg)

    # number of derivatives at boundaries (not-a-knot bc)
    deriv_l = None
    deriv_l_ords, deriv_l_vals = interpolate._bsplines._process_deriv_spec(deriv_l)
    deriv_r = None
    deriv_r_ords, deriv_r_vals = interpolate._bsplines._process_deriv_spec(deriv_r)

    nleft = deriv_l_ords.shape[0]
    nright = deriv_r_ords.shape[0]

    # basic collocation matrix
    kl = ku = intpol_deg
    nt = knots.size - intpol_deg - 1
    banded_colloc_matrix = np.zeros((2*kl + ku + 1, nt), dtype=np.float64, order='F')
    interpolate._bspl._colloc(np.array(original_grid, dtype=np.float64),
                np.array(knots, dtype=np.float64),
                intpol_deg, banded_colloc_matrix)

    # derivatives at boundaries
    if nleft > 0:
        interpolate._bspl._handle_lhs_derivatives(
            knots,
            intpol_deg,
            original_grid[0], 
            banded_colloc_matrix, kl, ku,
            deriv_l_ords.astype(np.dtype("long")))
    if nright > 0:
        interpolate._bspl._handle_lhs_derivatives(
            knots,
            intpol_deg,
            original_grid[-1],
            banded_colloc_matrix, kl, ku,
            deriv_r_ords.astype(np.dtype("long")),
            offset=nt-nright)
    return knots, banded_colloc_matrix


## Deal with collocation matrix
def _banded_colloc_matrix_to_full(colloc_matrix, intpol_deg):
    kl = intpol_deg
    center_row = 2*kl
    full_matrix = np.diag(colloc_matrix[center_row,:])
    for k in range(1, kl+1):
        full_matrix += np.diag(colloc_matrix[center_row-k,k:], k)
        full_matrix += np.diag(colloc_matrix[center_row+k,:-k], -k)
    return full_matrix


## Natural knots boundary condition – currently unused – TODO: implement?
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


# --- scaffolding: interpolate a smooth curve on a 12-point energy grid onto a 30-point grid, twice ---
original_grid = np.linspace(0.0, 1.0, 12)  # scaffolding
target_grid = np.linspace(0.0, 1.0, 30)  # scaffolding
intpol_deg = 3  # scaffolding
try:  # scaffolding
    knots, lhs = set_up_knots_and_lhs(original_grid, intpol_deg)  # scaffolding
    de_boor_coeffs = calc_de_boor(knots, target_grid, 0, intpol_deg)  # scaffolding
    intervals = find_interval(knots, target_grid, intpol_deg)  # scaffolding
    for values in (np.sin(3 * original_grid), np.cos(3 * original_grid)):  # scaffolding: two curves on the same grids
        rhs = not_a_knot_rhs(values)  # scaffolding
        spline_coeffs = get_bspline_coeffs(lhs, rhs)  # scaffolding
        interpolated = evaluate_spline(spline_coeffs, de_boor_coeffs, intervals, intpol_deg)  # scaffolding
    print(np.round(np.asarray(interpolated)[:4], 4))  # scaffolding
    _report({"jit(get_bspline_coeffs)", "jit(evaluate_spline)"}, 4)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
