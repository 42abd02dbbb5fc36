# source: https://github.com/gboehl/grgrlib/commit/c745c585b789621864c646e7bfa8a327fc2177a6
# expect: changing-static at line 63
# runtime: COMPILES 4 CALLS 4
# why: newton_jax_jit marks the residual function as a static argument, so each new closure (one per parameter value) is a new static key and the Newton solver recompiles for every steady state.
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


def newton_jax_jittable(func, init, jac=None, maxit=30, tol=1e-8):
    """Newton method for root finding using automatic differenciation with jax BUT running in pure jitted jax. The argument `func` must be jittable with jax. Remember to check the error flags!

    Note that when compiling this function without context, it is necessary to have the function as a static argument. This would imply that AD does not work on functions including a jitted version of this function, which renders jax rather useless. The major advantage of having this function is to include the jittable version (not the jitted one) directly into to-be-jitted code _together with the function for which the root is needed_.
    """

    if jac is None:
        jac = jax.jacfwd(func)

    xi = jnp.array(init)

    def cond_func(tain):
        xi, xold, cnt = tain
        eps = jnp.abs(xi - xold).max()

        cond = cnt < maxit
        cond &= eps > tol
        cond &= ~jnp.isnan(eps)

        return cond

    def body_func(tain):
        (xi, _, cnt) = tain
        cnt += 1
        xold = xi
        xi -= jax.scipy.linalg.solve(jac(xi), func(xi))
        return (xi, xold, cnt)

    tain = jax.lax.while_loop(cond_func, body_func, (xi, xi + 1, 0))
    eps = jnp.abs(tain[0] - tain[1]).max()

    return tain[0], func(tain[0]), tain[2] < maxit, eps < tol


newton_jax_jit = jax.jit(newton_jax_jittable, static_argnums=(0, 2, 3, 4))


def steady_state_residual(x, beta, alpha, delta):  # scaffolding: a small RBC steady state (k, c)
    k, c = x
    r = alpha * k ** (alpha - 1) + 1 - delta
    return jnp.array([beta * r - 1.0, k ** alpha - delta * k - c])


for beta in [0.95, 0.96, 0.97, 0.98]:  # scaffolding: steady states over a grid of discount factors
    func = lambda x: steady_state_residual(x, beta, 0.33, 0.025)
    xopt, fopt, converged, small_err = newton_jax_jit(func, jnp.array([10.0, 2.0]))
_report({"jit(newton_jax_jittable)"}, 4)  # scaffolding
