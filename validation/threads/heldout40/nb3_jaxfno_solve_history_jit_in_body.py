# source: https://github.com/christianfenton/jax-fno/blob/6fa48cebc6214d7a908500b266179709c1908185/src/jax_fno/integrate/solve.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: solve_with_history builds jax.jit(solve_ivp, static_argnames=['fun', 'method']) inside its body, but once per call, and reuses it for every chunk between t_eval points with the same fun, method and shapes, so it compiles once.

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


# --- end harness ---
# src/jax_fno/integrate/solve.py and timesteppers/explicit.py of christianfenton/jax-fno at 6fa48ce (docstrings cut);
# the heat-equation problem is the one of docs/tutorials/solving_heat_equation.md
import time
from typing import Callable, Tuple, Optional

import jax
from jax import Array
import jax.numpy as jnp
from flax import nnx


class RK4(nnx.Module):
    def step(
        self,
        fun: Callable,
        t: Array,
        y: Array,
        h: Array,
        args: tuple = ()
    ) -> Array:
        k1 = fun(t, y, *args)
        k2 = fun(t + 0.5 * h, y + 0.5 * h * k1, *args)
        k3 = fun(t + 0.5 * h, y + 0.5 * h * k2, *args)
        k4 = fun(t + h, y + h * k3, *args)
        return y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


def solve_ivp(
    fun: Callable,
    t_span: Tuple[float, float],
    y0: Array,
    method,
    step_size: float,
    args: tuple = ()
) -> Tuple[float, Array]:
    t_start, t_end = t_span

    def cond_fn(carry):
        t, y, _ = carry
        return t < t_end

    def body_fn(carry):
        t, y, m = carry

        # Adjust final step to hit t_end exactly
        h = jax.lax.max(0.0, jax.lax.min(step_size, t_end - t))

        y_next = m.step(fun, t, y, h, args)

        t_next = t + h

        return (t_next, y_next, m)

    t_final, y_final, _ = jax.lax.while_loop(cond_fn, body_fn, (t_start, y0, method))

    return t_final, y_final


def solve_with_history(
    fun: Callable,
    t_span: Tuple[float, float],
    y0: Array,
    method,
    step_size: float,
    t_eval: Optional[Array] = None,
    args: tuple = (),
    verbose: bool = False
) -> Tuple[Array, Array]:
    t_start, t_end = t_span

    # Set up evaluation times
    if t_eval is None:
        # Only save initial and final states
        t_eval = jnp.array([t_start, t_end])
    else:
        # Validate t_eval
        t_eval = jnp.asarray(t_eval)
        if jnp.any(t_eval < t_start) or jnp.any(t_eval > t_end):
            raise ValueError("All values in t_eval must be within t_span")
        if jnp.any(jnp.diff(t_eval) < 0):
            raise ValueError("t_eval must be sorted in increasing order")

        # Ensure t_start is included
        if t_eval[0] != t_start:
            t_eval = jnp.concatenate([jnp.array([t_start]), t_eval])

    n_steps_total = int(jnp.ceil((t_end - t_start) / step_size))

    if verbose:
        method_name = type(method).__name__
        print(f"Solving with {method_name}")
        print(
            f"Time: [{t_start}, {t_end}], dt={step_size}, "
            f"~{n_steps_total} total steps"
        )
        print(f"Evaluating at {len(t_eval)} time points")

    integrate_jit = jax.jit(solve_ivp, static_argnames=['fun', 'method'])

    # Integrate between consecutive evaluation points:
    y_save = [y0]
    t_save = [t_start]
    y = y0

    start_wallclock = time.time()

    for i in range(len(t_eval) - 1):
        t_i = float(t_eval[i])
        t_ip1 = float(t_eval[i + 1])
        t, y = integrate_jit(fun, (t_i, t_ip1), y, method, step_size, args)
        t_save.append(t)
        y_save.append(y)

    t_arr = jnp.stack(t_save)
    y_arr = jnp.stack(y_save, axis=0)

    elapsed_wallclock = time.time() - start_wallclock

    if verbose:
        print(
            f"Completed in {elapsed_wallclock:.3f}s "
            f"({n_steps_total / elapsed_wallclock:.1f} steps/s)"
        )

    return t_arr, y_arr


def laplacian_dirichlet_1d(u, bc_left, bc_right, dx):
    dudx = jnp.diff(u, prepend=bc_left, append=bc_right)
    return jnp.diff(dudx) / dx**2


def heat_rhs_dirichlet(t, u, diffusivity, bc_left, bc_right, dx):
    d2udx2 = laplacian_dirichlet_1d(u, bc_left, bc_right, dx)
    return diffusivity * d2udx2


D = 2.0  # diffusivity
L = 100.0  # domain length
n = 128  # number of grid points
h = L / (n + 1)  # grid spacing
bc_values = (0.0, 0.0)  # Dirichlet boundary condition values
t_span = (1.0, 10.0)  # (start_time, end_time)
x = jnp.linspace(h, L - h, n, endpoint=True)


def gaussian_ic(x, t, D, L):
    k = 1 / jnp.sqrt(4 * jnp.pi * D * t)
    return k * jnp.exp(-((x - L/2)**2) / (4 * D * t))


y0 = gaussian_ic(x, t_span[0], D, L)
t_eval = jnp.linspace(1.0, 10.0, 5)  # scaffolding: evaluation times for the history
method = RK4()  # scaffolding: an explicit stepper instead of the tutorial's BackwardEuler
t_arr, y_arr = solve_with_history(
    heat_rhs_dirichlet, t_span, y0, method, step_size=1e-1, t_eval=t_eval,
    args=(D, bc_values[0], bc_values[1], h)
)
_report({"jit(solve_ivp)"}, len(t_eval) - 1)  # scaffolding
