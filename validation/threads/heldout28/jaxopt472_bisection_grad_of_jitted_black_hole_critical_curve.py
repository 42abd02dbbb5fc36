# source: https://github.com/google/jaxopt/issues/472
# expect: trace-time-error at line 55
# runtime: ERROR TypeError
# why: r_c_solve builds a Bisection whose lower/upper bounds are traced values inside the jitted function; under grad(jit(...)) jaxopt's implicit-diff custom_root closes over those tracers, which leak into the jitted computation and fail at trace/lowering time
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

print(jax.grad(r_c_solve)(10., 0.9375, 163))  # scaffolding: grad without jit works (the thread's point of comparison)
r_c_solve_2 = jax.jit(r_c_solve)  # scaffolding: the stored thread omits these definitions; reconstructed from the title ("cannot jit before taking gradient") and the traceback
g_r_c_solve_2 = jax.grad(r_c_solve_2)  # scaffolding
try:  # scaffolding
    g_r_c_solve_2(10., 0.9375, 163)
    _report({"jit(r_c_solve)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
