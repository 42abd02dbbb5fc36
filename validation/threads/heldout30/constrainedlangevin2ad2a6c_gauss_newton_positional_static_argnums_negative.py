# source: https://github.com/dinner-group/constrained-Langevin/commit/2ad2a6cab44c722d70a6eb2a05649c674a27c657
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: gauss_newton and newton_rattle mark the residual function, Jacobian, max_iter and tol static by position on signatures that also take *args/**kwargs; called positionally with the same residual function they are hashable statics and the two projections share one compile.
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
import jax.numpy as np
# import util  # scaffolding: not used by the functions kept here
# import linear_solver  # scaffolding: not used by the functions kept here
from functools import partial
jax.config.update("jax_enable_x64", True)

@partial(jax.jit, static_argnums=(1, 3, 5, 6))
def newton_rattle(x, resid, jac_prev, jac=None, inverse_mass=None, max_iter=20, tol=1e-9, *args, **kwargs):

    if jac_prev is None:
        return gauss_newton(x, resid, jac, max_iter, tol, *args, **kwargs)

    if jac is None:
        jac = jax.jacfwd(resid)

    if inverse_mass is None:
        jac_prevM = jac_prev
    elif len(inverse_mass.shape) == 1:
        jac_prevM = jac_prev * inverse_mass
    else:
        jac_prevM = jac_prev@inverse_mass

    def cond(carry):
        x, step, dx = carry
        return (step < max_iter) & np.any(np.abs(dx) > tol)

    def loop_body(carry):
        x, step, dx = carry
        J = jac(x, *args)
        dx = jac_prevM.T@np.linalg.solve(J@jac_prevM.T, -resid(x, *args))
        return x + dx, step + 1, dx

    init = (x, 0, np.full_like(x, np.inf))
    x, n_iter, dx = jax.lax.while_loop(cond, loop_body, init)
    return x, np.all(np.abs(dx) < tol), n_iter

@partial(jax.jit, static_argnums=(1, 2, 3, 4))
def gauss_newton(x, resid, jac=None, max_iter=20, tol=1e-9, *args, **kwargs):

    if jac is None:
        jac = jax.jacfwd(resid)

    def cond(carry):
        x, step, dx = carry
        return (step < max_iter) & np.any(np.abs(dx) > tol)

    def loop_body(carry):
        x, step, dx = carry
        J = jac(x, *args, **kwargs)
        Q, R = jax.scipy.linalg.qr(J.T, mode="economic")
        dx = Q@jax.scipy.linalg.solve_triangular(R.T, -resid(x, *args, **kwargs), lower=True)
        return x + dx, step + 1, dx

    init = (x, 0, np.full_like(x, np.inf))
    x, n_iter, dx = jax.lax.while_loop(cond, loop_body, init)
    return x, np.all(np.abs(dx) < tol), n_iter


# scaffolding: a constrained-dynamics projection as in geodesic_langevin's RATTLE step without a
# previous Jacobian (jac_prev=None), which dispatches to gauss_newton: project points back onto the
# unit circle, twice, with the same residual function (positional arguments, as newton_rattle does)
def resid(x):  # scaffolding
    return np.array([x[0] ** 2 + x[1] ** 2 - 1.0])  # scaffolding


try:  # scaffolding
    for x0 in (np.array([1.2, 0.3]), np.array([-0.4, 0.9])):  # scaffolding
        x, converged, n_iter = newton_rattle(x0, resid, None)  # scaffolding
        print("projected", x.tolist(), "converged", bool(converged), "iterations", int(n_iter))  # scaffolding
    _report({"jit(newton_rattle)", "jit(gauss_newton)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
