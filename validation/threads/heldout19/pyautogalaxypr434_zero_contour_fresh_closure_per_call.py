# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/434
# expect: changing-static at line 76
# runtime: COMPILES 3 CALLS 3
# why: _critical_curve_list_via_zero_contour builds a fresh eigenvalue closure f and a fresh ZeroSolver on every call, and the jitted zero_contour_finder is keyed on their identity, so it recompiles on each of the 3 calls.
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

import jax
import jax.numpy as jnp


class ZeroSolver:  # scaffolding: stands in for jax_zero_contour.ZeroSolver (not installed)
    def __init__(self, tol=1e-6, max_newton=5):
        self.tol = tol
        self.max_newton = max_newton

    @partial(jax.jit, static_argnums=(0, 1), static_argnames=("N",))  # self and f are static: the cache is keyed on their identity
    def zero_contour_finder(self, f, init_guess, delta=0.05, N=50):
        def newton(pos):
            def body(_, p):
                g = jax.grad(f)(p)
                return p - f(p) * g / jnp.sum(g ** 2)
            return jax.lax.fori_loop(0, self.max_newton, body, pos)

        def step(pos, _):
            g = jax.grad(f)(pos)
            tangent = jnp.array([-g[1], g[0]]) / jnp.linalg.norm(g)
            new = newton(pos + delta * tangent)
            return new, new

        start = jax.vmap(newton)(init_guess)
        _, paths = jax.lax.scan(lambda p, x: jax.vmap(lambda q: step(q, x))(p), start, None, length=N)
        return paths, None

    @staticmethod
    def path_reduce(paths):
        return [paths[:, i] for i in range(paths.shape[1])]


class LensCalc:
    def __init__(self, deflections_yx_2d_from, potential_2d_from=None):
        self.deflections_yx_2d_from = deflections_yx_2d_from
        self.potential_2d_from = potential_2d_from

    def _make_eigen_fn(self, kind: str, pixel_scales=(0.05, 0.05)):  # scaffolding: tangential eigenvalue of the lensing Jacobian via autodiff
        def f(pos):
            jac = jax.jacfwd(lambda p: p - self.deflections_yx_2d_from(p))(pos)
            kappa = 1.0 - 0.5 * jnp.trace(jac)
            gamma = 0.5 * jnp.sqrt((jac[0, 0] - jac[1, 1]) ** 2 + (jac[0, 1] + jac[1, 0]) ** 2)
            return 1.0 - kappa - gamma
        return f

    def _critical_curve_list_via_zero_contour(self, kind="tangential", pixel_scales=(0.05, 0.05), init_guess=None,
                                              tol=1e-6, max_newton=5, delta=0.05, N=50):
        init_guess = jnp.atleast_2d(jnp.asarray(init_guess))
        f = self._make_eigen_fn(kind=kind, pixel_scales=pixel_scales)
        solver = ZeroSolver(tol=tol, max_newton=max_newton)
        paths, _ = solver.zero_contour_finder(f, init_guess, delta=delta, N=N)
        paths = ZeroSolver.path_reduce(paths)
        return paths


def sie_deflections(pos):  # scaffolding: a singular isothermal lens with Einstein radius 1.2
    return 1.2 * pos / jnp.sqrt(jnp.sum(pos ** 2))


lens_calc = LensCalc(sie_deflections)  # scaffolding

for _ in range(3):  # scaffolding: three critical-curve requests (e.g. plotter and latents)
    curves = lens_calc._critical_curve_list_via_zero_contour(init_guess=[[1.1, 0.1]])
_report({"jit(zero_contour_finder)"}, 3)  # scaffolding
