# source: https://github.com/gboehl/grgrlib/commit/c745c585b789621864c646e7bfa8a327fc2177a6
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit's version: newton_jax_jit is a plain @jax.jit whose func is a pytree (a tree_util.Partial carrying the parameters) threaded through the while_loop carry, so the solver compiles once.
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


def newton_cond_func(carry):
    (xi, eps, cnt), (func, verbose, maxit, tol) = carry
    cond = cnt < maxit
    cond = jnp.logical_and(cond, eps > tol)
    cond = jnp.logical_and(cond, ~jnp.isnan(eps))
    jax.debug.callback(callback_func, cnt, eps, verbose=verbose)
    return cond


def newton_body_func(carry):
    (xi, eps, cnt), (func, verbose, maxit, tol) = carry
    xi_old = xi
    f, jac = func(xi)
    xi -= jax.scipy.linalg.solve(jac, f)
    eps = amax(xi-xi_old)
    return (xi, eps, cnt+1), (func, verbose, maxit, tol)


def callback_func(cnt, err, dampening=None, ltime=None, verbose=True):
    mess = f'    Iteration {cnt:3d} | max. error {err:.2e}'
    if dampening is not None:
        mess += f' | dampening {dampening:1.3f}'
    if ltime is not None:
        mess += f' | lapsed {ltime:3.4f}s'
    if verbose:
        print(mess)


@jax.jit
def newton_jax_jit(func, x_init, maxit=30, tol=1e-8, verbose=True):
    """Newton method for root finding using automatic differentiation with jax and running in jitted jax."""
    (xi, eps, cnt), _ = jax.lax.while_loop(newton_cond_func,
                                           newton_body_func, ((x_init, 1., 0), (func, verbose, maxit, tol)))
    return xi, func(xi), cnt, eps > tol


amax = jax.jit(lambda x: jnp.abs(x).max())


def steady_state_residual(x, beta, alpha, delta):  # scaffolding: a small RBC steady state (k, c)
    k, c = x
    r = alpha * k ** (alpha - 1) + 1 - delta
    return jnp.array([beta * r - 1.0, k ** alpha - delta * k - c])


def residual_and_jac(x, beta, alpha, delta):  # scaffolding: stands in for grgrlib's jacfwd_and_val
    return steady_state_residual(x, beta, alpha, delta), jax.jacfwd(steady_state_residual)(x, beta, alpha, delta)


for beta in [0.95, 0.96, 0.97, 0.98]:  # scaffolding: steady states over a grid of discount factors
    func = jax.tree_util.Partial(residual_and_jac, beta=beta, alpha=0.33, delta=0.025)
    xopt, (fopt, jacopt), niter, failed = newton_jax_jit(func, jnp.array([10.0, 2.0]), verbose=False)
_report({"jit(newton_jax_jit)"}, 4)  # scaffolding
