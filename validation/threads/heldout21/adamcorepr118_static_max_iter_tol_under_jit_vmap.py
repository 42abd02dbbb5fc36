# source: https://github.com/B612-Asteroid-Institute/adam_core/pull/118
# expect: unhashable-static at line 157
# runtime: ERROR ValueError
# why: the PR marks max_iter and tol static on _keplerian_to_cartesian_p, but the module's jit(vmap(...)) wrapper traces them first, so the inner jit receives tracers as static arguments and raises ValueError (non-hashable static argument).
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
from typing import Union

import jax.numpy as jnp
import numpy as np
from jax import config, jit, lax, vmap

config.update("jax_enable_x64", True)

FLOAT_TOLERANCE = 1e-15


@jit
def solve_barker(M: float) -> float:  # adam_core/dynamics/barker.py
    nu = 2 * jnp.arctan(
        (3 * M + jnp.sqrt((3 * M) ** 2 + 1)) ** (1 / 3)
        - (3 * M + jnp.sqrt((3 * M) ** 2 + 1)) ** (-1 / 3)
    )
    return nu


@partial(jit, static_argnames=("max_iter", "tol"))
def solve_kepler(e: float, M: float, max_iter: int = 100, tol: float = 1e-15) -> float:
    ratio = 1e15
    iterations = 0
    E_init = jnp.where(e < 1.0, M, M)

    p = [E_init, e, M, ratio, iterations]

    @jit
    def _elliptical_newton_raphson(p):
        E = p[0]
        e = p[1]
        M = p[2]
        iterations = p[4]

        # Newton-Raphson
        # Equation 3.17 in Curtis (2014) [1]
        f = E - e * jnp.sin(E) - M
        fp = 1 - e * jnp.cos(E)

        ratio = f / fp
        E -= ratio
        iterations += 1

        p[0] = E
        p[1] = e
        p[2] = M
        p[3] = ratio
        p[4] = iterations
        return p

    @jit
    def _hyperbolic_newton_raphson(p):
        F = p[0]
        e = p[1]
        M = p[2]
        iterations = p[4]

        # Newton-Raphson
        # Equation 3.45 in Curtis (2014) [1]
        f = e * jnp.sinh(F) - F - M
        fp = e * jnp.cosh(F) - 1

        ratio = f / fp
        F -= ratio
        iterations += 1

        p[0] = F
        p[1] = e
        p[2] = M
        p[3] = ratio
        p[4] = iterations
        return p

    # Define while loop condition function
    @jit
    def _while_condition(p):
        ratio = p[-2]
        iterations = p[-1]
        return (jnp.abs(ratio) > tol) & (iterations <= max_iter)

    # Calculate parameters, if e < 1.0 then the orbit is elliptical
    # if e > 1.0 then the orbit is hyperbolic
    p = lax.cond(
        e < 1.0,
        lambda p: lax.while_loop(_while_condition, _elliptical_newton_raphson, p),
        lambda p: lax.cond(
            e > 1.0,
            lambda p: lax.while_loop(
                _while_condition,
                _hyperbolic_newton_raphson,
                p,
            ),
            # For parabolic orbits return the parameters as is since
            # no iteration is needed for parabolic orbits
            lambda p: p,
            p,
        ),
        p,
    )

    nu = lax.cond(
        e < 1.0,
        lambda E, e, M: 2
        * jnp.arctan2(
            jnp.sqrt(1 + e) * jnp.sin(E / 2), jnp.sqrt(1 - e) * jnp.cos(E / 2)
        ),
        lambda E, e, M: lax.cond(
            e > 1.0,
            lambda H, e, M: 2
            * jnp.arctan(
                jnp.sqrt(e + 1) * jnp.sinh(H / 2) / (jnp.sqrt(e - 1) * jnp.cosh(H / 2))
            ),
            lambda P, e, M: solve_barker(M),
            p[0],
            p[1],
            p[2],
        ),
        p[0],
        p[1],
        p[2],
    )

    # True anomaly should be in the range [0, 2*pi)
    nu = jnp.where(nu < 0.0, nu + 2 * jnp.pi, nu)
    nu = jnp.where(nu >= 2 * jnp.pi, nu % (2 * jnp.pi), nu)
    return nu


@partial(jit, static_argnames=("max_iter", "tol"))
def _keplerian_to_cartesian_p(
    coords_keplerian: Union[np.ndarray, jnp.ndarray],
    mu: float,
    max_iter: int = 1000,
    tol: float = 1e-15,
) -> jnp.ndarray:

    coords_cartesian = jnp.zeros(6, dtype=jnp.float64)

    p = coords_keplerian[0]
    e = coords_keplerian[1]
    i = jnp.radians(coords_keplerian[2])
    raan = jnp.radians(coords_keplerian[3])
    ap = jnp.radians(coords_keplerian[4])
    M = jnp.radians(coords_keplerian[5])

    # Calculate the true anomaly
    nu = lax.cond(
        (e > (1.0 - FLOAT_TOLERANCE)) & (e < (1.0 + FLOAT_TOLERANCE)),
        lambda e_i, M_i: solve_barker(M_i),
        lambda e_i, M_i: solve_kepler(e_i, M_i, max_iter=max_iter, tol=tol),
        e,
        M,
    )

    # Calculate the perifocal rotation matrices
    r_PQW = jnp.array(
        [
            p * jnp.cos(nu) / (1 + e * jnp.cos(nu)),
            p * jnp.sin(nu) / (1 + e * jnp.cos(nu)),
            0,
        ]
    )
    v_PQW = jnp.array(
        [-jnp.sqrt(mu / p) * jnp.sin(nu), jnp.sqrt(mu / p) * (e + jnp.cos(nu)), 0]
    )

    cos_raan = jnp.cos(raan)
    sin_raan = jnp.sin(raan)
    cos_ap = jnp.cos(ap)
    sin_ap = jnp.sin(ap)
    cos_i = jnp.cos(i)
    sin_i = jnp.sin(i)

    P1 = jnp.array(
        [
            [cos_ap, -sin_ap, 0.0],
            [sin_ap, cos_ap, 0.0],
            [0.0, 0.0, 1.0],
        ],
        dtype=jnp.float64,
    )

    P2 = jnp.array(
        [
            [1.0, 0.0, 0.0],
            [0.0, cos_i, -sin_i],
            [0.0, sin_i, cos_i],
        ],
        dtype=jnp.float64,
    )

    P3 = jnp.array(
        [
            [cos_raan, -sin_raan, 0.0],
            [sin_raan, cos_raan, 0.0],
            [0.0, 0.0, 1.0],
        ],
        dtype=jnp.float64,
    )

    rotation_matrix = P3 @ P2 @ P1
    r = rotation_matrix @ r_PQW
    v = rotation_matrix @ v_PQW

    coords_cartesian = coords_cartesian.at[0].set(r[0])
    coords_cartesian = coords_cartesian.at[1].set(r[1])
    coords_cartesian = coords_cartesian.at[2].set(r[2])
    coords_cartesian = coords_cartesian.at[3].set(v[0])
    coords_cartesian = coords_cartesian.at[4].set(v[1])
    coords_cartesian = coords_cartesian.at[5].set(v[2])

    return coords_cartesian



# Vectorization Map: _keplerian_to_cartesian_p
_keplerian_to_cartesian_p_vmap = jit(
    vmap(
        _keplerian_to_cartesian_p,
        in_axes=(0, 0, None, None),
    )
)


# scaffolding: keplerian_to_cartesian's call for two batches of orbits (elements p, e, i, raan, ap, M)
MU = 0.29591220828411956e-03
coords = np.array([[1.0, 0.1, 10.0, 20.0, 30.0, 40.0], [2.5, 0.3, 5.0, 80.0, 120.0, 200.0], [1.5, 1.4, 20.0, 10.0, 60.0, 10.0]])
try:  # scaffolding
    for k in range(2):  # scaffolding
        coords_cartesian = _keplerian_to_cartesian_p_vmap(coords + 0.01 * k, np.full(3, MU), 100, 1e-15)
    _report({"jit(_keplerian_to_cartesian_p)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
