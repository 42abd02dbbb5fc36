# source: https://github.com/google/jaxopt/issues/472
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jit is applied outside grad, so the Bisection bounds computed from spin are tracers of the same jit trace that runs the implicit-diff solve; nothing leaks, the gradient compiles once and is reused
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



import numpy as np
import jax.numpy as jnp
import jax
from jaxopt import Bisection

@jax.jit
def _xy_c(r, phi, spin, theta_o):
    lam = spin + r / spin * (r - (2 * (r**2 - 2 * r + spin**2)) / (r - 1))
    eta = r**3 / spin**2 *((4 * (r**2 - 2 * r + spin**2)) / (r - 1)**2 - r)
    alpha = -lam / jnp.sin(theta_o)
    beta = eta + spin**2 * jnp.cos(theta_o)**2 - lam**2 * jnp.tan(theta_o)**(-2)
    beta = jnp.sign(beta) * jnp.sqrt(jnp.abs(beta))
    return alpha, beta

@jax.jit
def _r_c_solve(r, phi, spin, theta_o):
    alpha, beta = _xy_c(r, phi, spin, theta_o)
    return (jnp.arctan2(beta, alpha) * 180. / jnp.pi + 90) % 360 - 90 - phi * 180. / jnp.pi

def r_c_solve(phi, spin, theta_o):
    phi = phi * jnp.pi / 180.
    theta_o = theta_o * jnp.pi / 180.
    theta_o = jnp.clip(theta_o, 1e-5, jnp.pi - 1e-5)
    r_m = 2 * (1 + jnp.cos(2 / 3 * jnp.arccos(-spin)))
    r_p = 2 * (1 + jnp.cos(2 / 3 * jnp.arccos(spin)))
    r_0 = r_m - 0.0001 * (r_p - r_m)
    r_1 = r_p + 0.0001 * (r_p - r_m)
    return Bisection(optimality_fun=_r_c_solve, lower=r_0, upper=r_1,
                     check_bracket=False).run(phi=phi, spin=spin, theta_o=theta_o).params

g_r_c_solve_2 = jax.jit(jax.grad(r_c_solve))  # fix: take the gradient first, then jit, so the Bisection bounds are tracers of the same (jit) trace
print(g_r_c_solve_2(10., 0.9375, 163))  # scaffolding: the thread's call
print(g_r_c_solve_2(20., 0.9375, 163))  # scaffolding: a second angle reuses the compiled gradient
_report({"jit(r_c_solve)"}, 2)  # scaffolding
