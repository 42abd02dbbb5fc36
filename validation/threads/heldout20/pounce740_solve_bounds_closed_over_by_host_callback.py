# source: https://github.com/jkitchin/pounce/issues/740
# expect: trace-time-error at line 159
# runtime: ERROR JaxRuntimeError
# why: solve() closes over lb/ub in the pure_callback's host function; when the bounds are jnp arrays built inside the jitted function they are tracers of that trace, and reading them at callback time raises (UnexpectedTracerError inside the callback).
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
# jkitchin/pounce issue #740: jax.jit over pounce.jax.solve() with jnp bounds built in-trace; python/pounce/jax/_diff.py before the fix (6890bd57^)
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)  # scaffolding: pounce works in float64


class _JaxProblem:  # scaffolding: the JAX-AD problem object (python/pounce/jax/_build.py), reduced to objective/gradient/hessian
    def __init__(self, f, g, n, m):  # scaffolding
        self._f, self._g_f, self._h_f = jax.jit(f), jax.jit(jax.grad(f)), jax.jit(jax.hessian(f))  # scaffolding


class Problem:  # scaffolding: the Rust pounce.Problem; the binding reads the bounds into Vec<f64> (float() per entry) and solves
    def __init__(self, n, m, problem_obj, lb=None, ub=None, cl=None, cu=None):  # scaffolding
        self.obj = problem_obj  # scaffolding
        self.lb = [float(v) for v in lb] if lb is not None else [-np.inf] * n  # scaffolding
        self.ub = [float(v) for v in ub] if ub is not None else [np.inf] * n  # scaffolding

    def add_option(self, k, v):  # scaffolding
        pass  # scaffolding

    def solve(self, x0):  # scaffolding: projected Newton steps
        x = np.array(x0, dtype=np.float64)  # scaffolding
        for _ in range(5):  # scaffolding
            x = x - np.linalg.solve(np.asarray(self.obj._h_f(x)), np.asarray(self.obj._g_f(x)))  # scaffolding
            x = np.clip(x, self.lb, self.ub)  # scaffolding
        n = x.size  # scaffolding
        return x, {"obj_val": float(self.obj._f(x)), "status": 0, "iter_count": 5, "g": np.zeros(0),  # scaffolding
                   "mult_g": np.zeros(0), "mult_x_L": np.zeros(n), "mult_x_U": np.zeros(n)}  # scaffolding


def _kkt_implicit_backward(*args):  # scaffolding: the implicit-function backward is not exercised here
    raise NotImplementedError  # scaffolding


def _solve_once(
    f: Callable,
    g: Callable | None,
    p: jnp.ndarray,
    x0: jnp.ndarray,
    n: int,
    m: int,
    lb,
    ub,
    cl,
    cu,
    options: dict | None,
) -> tuple[np.ndarray, dict]:
    """Forward solve. ``p`` is closed over by ``f`` / ``g`` via partial."""

    def f_of_x(x):
        return f(x, p)

    if g is not None:
        def g_of_x(x):
            return g(x, p)
    else:
        g_of_x = None

    obj = _JaxProblem(f=f_of_x, g=g_of_x, n=n, m=m)
    problem = Problem(n=n, m=m, problem_obj=obj, lb=lb, ub=ub, cl=cl, cu=cu)
    if options:
        for k, v in options.items():
            problem.add_option(k, v)
    x_np, info = problem.solve(x0=np.asarray(x0))
    return np.asarray(x_np), info


def _make_solve_custom_vjp(
    f: Callable,
    g: Callable | None,
    n: int,
    m: int,
    lb,
    ub,
    cl,
    cu,
    options: dict | None,
):
    @jax.custom_vjp
    def solve_fn(p, x0):
        # Pure-callback to Python. The forward returns only x*; the
        # backward needs (x*, λ*, mult_x_L, mult_x_U) so we re-pack
        # them via the residual.
        x_star, _info = _pure_callback_solve(f, g, p, x0, n, m, lb, ub, cl, cu, options)
        return x_star

    def fwd(p, x0):
        x_star, info = _pure_callback_solve(f, g, p, x0, n, m, lb, ub, cl, cu, options)
        lam = jnp.asarray(info["mult_g"]) if m > 0 else jnp.zeros(0)
        mult_xL = jnp.asarray(info["mult_x_L"])
        mult_xU = jnp.asarray(info["mult_x_U"])
        return x_star, (p, x_star, lam, mult_xL, mult_xU)

    def bwd(residuals, cotangent_x):
        p, x_star, lam, mult_xL, mult_xU = residuals
        dL_dp = _kkt_implicit_backward(
            f, g, n, m, cl, cu, p, x_star, lam, mult_xL, mult_xU, cotangent_x
        )
        # The x0 input has no sensitivity through x* (the solver is
        # deterministic at optimum); return zeros.
        return dL_dp, jnp.zeros((n,), dtype=jnp.float64)

    solve_fn.defvjp(fwd, bwd)
    return solve_fn


def _pure_callback_solve(f, g, p, x0, n, m, lb, ub, cl, cu, options):
    """JAX pure_callback wrapper around :func:`_solve_once`.

    Returns ``(x_star, info)`` where ``info`` is a dict of arrays.
    The shapes are static so JAX can trace through cleanly.
    """
    result_shapes = (
        jax.ShapeDtypeStruct((n,), jnp.float64),
        {
            "obj_val": jax.ShapeDtypeStruct((), jnp.float64),
            "status": jax.ShapeDtypeStruct((), jnp.int32),
            "iter_count": jax.ShapeDtypeStruct((), jnp.int32),
            "g": jax.ShapeDtypeStruct((m,), jnp.float64),
            "mult_g": jax.ShapeDtypeStruct((m,), jnp.float64),
            "mult_x_L": jax.ShapeDtypeStruct((n,), jnp.float64),
            "mult_x_U": jax.ShapeDtypeStruct((n,), jnp.float64),
        },
    )

    def host_call(p_h, x0_h):
        x_np, info = _solve_once(
            f=f, g=g,
            p=jnp.asarray(p_h),
            x0=jnp.asarray(x0_h),
            n=n, m=m, lb=lb, ub=ub, cl=cl, cu=cu,
            options=options,
        )
        info_out = {
            "obj_val": np.float64(info["obj_val"]),
            "status": np.int32(info["status"]),
            "iter_count": np.int32(info["iter_count"]),
            "g": np.asarray(info["g"], dtype=np.float64),
            "mult_g": np.asarray(info["mult_g"], dtype=np.float64),
            "mult_x_L": np.asarray(info["mult_x_L"], dtype=np.float64),
            "mult_x_U": np.asarray(info["mult_x_U"], dtype=np.float64),
        }
        return np.asarray(x_np, dtype=np.float64), info_out

    return jax.pure_callback(host_call, result_shapes, p, x0)


def solve(
    p,
    *,
    f: Callable,
    g: Callable | None = None,
    x0,
    n: int,
    m: int = 0,
    lb=None,
    ub=None,
    cl=None,
    cu=None,
    options: dict | None = None,
):
    """Parametric solve. ``x* = solve(p, f=..., g=..., x0=..., ...)``.

    Differentiable w.r.t. ``p`` via the implicit-function rule on the
    KKT system at ``x*(p)``. Not differentiable w.r.t. ``x0``.

    ``f`` and ``g`` must take ``(x, p)`` and be JAX-traceable.
    """
    fn = _make_solve_custom_vjp(f, g, n, m, lb, ub, cl, cu, options)
    return fn(p, x0)


# the docs' pattern: bounds written with jnp inside the jitted function (docs/src/python.md)
def f(x, p):  # scaffolding: a parametric objective
    return jnp.sum((x - p) ** 2)  # scaffolding


p = jnp.array([1.0, -2.0])  # scaffolding
try:  # scaffolding
    x = jax.jit(lambda p: solve(p, f=f, x0=jnp.zeros(2), n=2, lb=jnp.full(2, -10.0), ub=jnp.full(2, 10.0)))(p)
    print(x)  # scaffolding
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
