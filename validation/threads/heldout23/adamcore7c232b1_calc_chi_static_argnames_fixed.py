# source: https://github.com/B612-Asteroid-Institute/adam_core/commit/7c232b143937839071e8a2f1dea985e5fba18ac4
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: After the commit mu, max_iter and tol are static_argnames; with the defaults kept the four calls still compile once.
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



# adam_core/dynamics/stumpff.py
from functools import partial
from typing import Tuple

import jax.numpy as jnp
from jax import config, jit, lax

config.update("jax_enable_x64", True)

STUMPFF_TYPES = Tuple[
    jnp.float64, jnp.float64, jnp.float64, jnp.float64, jnp.float64, jnp.float64
]


@jit
def _positive_psi(psi: jnp.float64) -> STUMPFF_TYPES:
    # Equation 6.9.15 in Danby (1992) [1]
    sqrt_psi = jnp.sqrt(psi)
    c0 = jnp.cos(sqrt_psi)
    c1 = jnp.sin(sqrt_psi) / sqrt_psi

    # Equation 6.9.16 in Danby (1992) [1]
    # states the recursion relation for higher
    # order Stumpff functions
    c2 = (1.0 - c0) / psi
    c3 = (1.0 - c1) / psi
    c4 = (1 / 2.0 - c2) / psi
    c5 = (1 / 6.0 - c3) / psi

    return c0, c1, c2, c3, c4, c5


@jit
def _negative_psi(psi: jnp.float64) -> STUMPFF_TYPES:
    # Equation 6.9.15 in Danby (1992) [1]
    sqrt_npsi = jnp.sqrt(-psi)
    c0 = jnp.cosh(sqrt_npsi)
    c1 = jnp.sinh(sqrt_npsi) / sqrt_npsi

    # Equation 6.9.16 in Danby (1992) [1]
    # states the recursion relation for higher
    # order Stumpff functions
    c2 = (1.0 - c0) / psi
    c3 = (1.0 - c1) / psi
    c4 = (1 / 2.0 - c2) / psi
    c5 = (1 / 6.0 - c3) / psi

    return c0, c1, c2, c3, c4, c5


@jit
def _null_psi(psi: jnp.float64) -> STUMPFF_TYPES:
    # Equation 6.9.14 in Danby (1992) [1]
    c0 = 1.0
    c1 = 1.0
    c2 = 1 / 2.0
    c3 = 1 / 6.0
    c4 = 1 / 24.0
    c5 = 1 / 120.0

    return c0, c1, c2, c3, c4, c5


@jit
def calc_stumpff(psi: jnp.float64) -> STUMPFF_TYPES:
    """
    Calculate the first 6 Stumpff functions for variable psi.

    Parameters
    ----------
    psi : float
        Dimensionless parameter at which to evaluate the Stumpff functions (equivalent to alpha * chi**2).

    Returns
    -------
    c0, c1, c2, c3, c4, c5 : 6 x float
        First six Stumpff functions.

    References
    ----------
    [1] Danby, J. M. A. (1992). Fundamentals of Celestial Mechanics. 2nd ed.,
        William-Bell, Inc. ISBN-13: 978-0943396200
        Notes: of particular interest is Danby's fantastic chapter on universal variables (6.9)
    """
    c0, c1, c2, c3, c4, c5 = lax.cond(
        psi > 0.0,
        _positive_psi,
        lambda psi: lax.cond(psi < 0.0, _negative_psi, _null_psi, psi),
        psi,
    )
    return c0, c1, c2, c3, c4, c5


# adam_core/dynamics/chi.py
from typing import Tuple

import jax.numpy as jnp
import numpy as np
from jax import config, jit, lax


config.update("jax_enable_x64", True)

MU = 0.29591220828411956e-03  # scaffolding: adam_core.constants KM_P_AU-based MU value


@partial(jit, static_argnames=("mu", "max_iter", "tol"))
def calc_chi(
    r: jnp.ndarray,
    v: jnp.ndarray,
    dt: float,
    mu: float = MU,
    max_iter: int = 100,
    tol: float = 1e-16,
) -> Tuple[
    np.float64, np.float64, np.float64, np.float64, np.float64, np.float64, np.float64
]:
    """
    Calculate universal anomaly chi using Newton-Raphson.

    Parameters
    ----------
    r : `~jax.numpy.ndarray` (3)
        Position vector in au.
    v : `~jax.numpy.ndarray` (3)
        Velocity vector in au per day.
    dt : float
        Time from epoch to which calculate chi in units of decimal days.
    mu : float
        Gravitational parameter (GM) of the attracting body in units of
        au**3 / d**2.
    max_iter : int
        Maximum number of iterations over which to converge. If number of iterations is
        exceeded, will return the value of the universal anomaly at the last iteration.
    tol : float
        Numerical tolerance to which to compute chi using the Newtown-Raphson
        method.

    Returns
    -------
    chi : float
        Universal anomaly.
    c0, c1, c2, c3, c4, c5 : 6 x float
        First six Stumpff functions.

    References
    ----------
    [1] Curtis, H. D. (2014). Orbital Mechanics for Engineering Students. 3rd ed.,
        Elsevier Ltd. ISBN-13: 978-0080977478
    """
    v_mag = jnp.linalg.norm(v)
    r_mag = jnp.linalg.norm(r)
    rv_mag = jnp.dot(r, v) / r_mag
    sqrt_mu = jnp.sqrt(mu)

    # Equations 3.48 and 3.50 in Curtis (2014) [1]
    alpha = -(v_mag**2) / mu + 2 / r_mag

    # Equation 3.66 in Curtis (2014) [1]
    chi = sqrt_mu * jnp.abs(alpha) * dt

    ratio = 1e15
    iterations = 0
    # Define parameters array (arguments that will be changing as
    # the while loop iterates):
    # chi, c0, c1, c2, c3, c4, c5, ratio, iterations
    p = [chi, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ratio, iterations]

    # Define while loop body function
    @jit
    def _chi_newton_raphson(p):

        chi = p[0]
        ratio = p[-2]
        iterations = p[-1]

        chi2 = chi**2
        psi = alpha * chi2
        c0, c1, c2, c3, c4, c5 = calc_stumpff(psi)

        # Newton-Raphson
        # Equation 3.65 in Curtis (2014) [1]
        f = (
            r_mag * rv_mag / sqrt_mu * chi2 * c2
            + (1 - alpha * r_mag) * chi**3 * c3
            + r_mag * chi
            - sqrt_mu * dt
        )
        fp = (
            r_mag * rv_mag / sqrt_mu * chi * (1 - alpha * chi2 * c3)
            + (1 - alpha * r_mag) * chi2 * c2
            + r_mag
        )

        ratio = f / fp
        chi -= ratio
        iterations += 1

        p[0] = chi
        p[1] = c0
        p[2] = c1
        p[3] = c2
        p[4] = c3
        p[5] = c4
        p[6] = c5
        p[7] = ratio
        p[8] = iterations
        return p

    # Define while loop condition function
    @jit
    def _while_condition(p):
        ratio = p[-2]
        iterations = p[-1]
        return (jnp.abs(ratio) > tol) & (iterations <= max_iter)

    p = lax.while_loop(_while_condition, _chi_newton_raphson, p)
    chi = p[0]
    c0 = p[1]
    c1 = p[2]
    c2 = p[3]
    c3 = p[4]
    c4 = p[5]
    c5 = p[6]

    return chi, c0, c1, c2, c3, c4, c5

r = jnp.array([1.0, 0.2, 0.0])  # scaffolding: one orbit state (au, au/d)
v = jnp.array([0.0, 0.017, 0.001])  # scaffolding
calls = 0  # scaffolding
for dt in [1.0, 5.0, 30.0, 120.0]:  # scaffolding: propagate the same state to several times
    calc_chi(r, v, dt)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(calc_chi)"}, calls)  # scaffolding
