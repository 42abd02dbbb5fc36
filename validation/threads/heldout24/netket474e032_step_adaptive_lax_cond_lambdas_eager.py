# source: https://github.com/netket/netket/commit/474e032d8a93eddbd4dddb55971898bafc724c03
# expect: jit-in-loop-or-body at line 128
# runtime: COMPILES 30 CALLS 10
# why: _step_adaptive is no longer jitted, so each eager jax.lax.cond call in set_flag_jax and at its return gets freshly created lambdas and compiles a new jit(cond) on every step: 3 compiles per step, 30 for 10 steps (the memory growth of netket#2043).

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


from collections.abc import Callable
from enum import IntFlag, auto

import jax
import jax.numpy as jnp
import numpy as np
from flax import struct  # scaffolding: stand-in for netket.utils.struct


# --- netket/experimental/dynamics/_integrator_state.py (cut down) ---
class IntegratorFlags(IntFlag):
    """
    Enum class containing flags for signaling solver information from within `jax.jit`ed code.
    """

    NONE = 0
    INFO_STEP_ACCEPTED = auto()
    WARN_MIN_DT = auto()
    WARN_MAX_DT = auto()
    ERROR_INVALID_DT = auto()

    WARNINGS_FLAGS = WARN_MIN_DT | WARN_MAX_DT
    ERROR_FLAGS = ERROR_INVALID_DT


@struct.dataclass
class _KahanSum:  # scaffolding: stand-in for netket.utils.KahanSum
    value: jax.Array

    def __add__(self, other):
        return _KahanSum(self.value + other)


@struct.dataclass
class IntegratorState:  # scaffolding: netket's struct.Pytree state as a flax dataclass with the same fields
    solver_state: object
    step_no: jax.Array
    step_no_total: jax.Array
    t: _KahanSum
    y: jax.Array
    dt: jax.Array
    last_norm: jax.Array
    last_scaled_error: jax.Array
    flags: object = IntegratorFlags.INFO_STEP_ACCEPTED


@struct.dataclass
class IntegratorParameters:  # scaffolding: netket's IntegratorParameters fields
    dt: float
    atol: float = 0.0
    rtol: float = 1e-7
    dt_limits: tuple = struct.field(pytree_node=False, default=(None, 10.0))


class Heun:  # scaffolding: a 2nd-order embedded RK solver (netket's RK12 tableau)
    error_order = 1

    def step_with_error(self, f, dt, t, y_t, solver_state):
        k1 = f(t, y_t)
        k2 = f(t + dt, y_t + dt * k1)
        y_tp1 = y_t + dt * (k1 + k2) / 2
        y_err = dt * (k2 - k1) / 2
        return y_tp1, y_err, solver_state


def mpi_all_jax(x):  # scaffolding: single process, as netket.utils.mpi.primitives.mpi_all_jax without MPI
    return x, None


def mpi_all(x):  # scaffolding: single process, as netket.utils.mpi.primitives.mpi_all without MPI
    return x, None


def tree_size(x):  # scaffolding: netket.jax.tree_size
    return sum(l.size for l in jax.tree_util.tree_leaves(x))


# --- netket/experimental/dynamics/_utils.py ---
def propose_time_step(
    dt: float, scaled_error: float, error_order: int, limits
) -> float:
    """
    Propose an updated dt based on the scheme suggested in Numerical Recipes, 3rd ed.
    """
    SAFETY_FACTOR = 0.95
    err_exponent = -1.0 / (1 + error_order)
    return jnp.clip(
        dt * SAFETY_FACTOR * scaled_error**err_exponent,
        limits[0],
        limits[1],
    )


def set_flag_jax(condition, flags, flag):
    """
    If `condition` is true, `flags` is updated by setting `flag` to 1.
    This is equivalent to the following code, but compatible with jax.jit:
        if condition:
            flags |= flag
    """
    return jax.lax.cond(
        condition,
        lambda x: x | flag,
        lambda x: x,
        flags,
    )


def scaled_error(y, y_err, atol, rtol, *, last_norm_y=None, norm_fn) -> float:
    norm_y = norm_fn(y)
    scale = (atol + jnp.maximum(norm_y, last_norm_y) * rtol) / tree_size(y_err)
    return norm_fn(y_err) / scale, norm_y


def euclidean_norm(x):
    """
    Computes the Euclidean L2 norm of the Array or PyTree intended as a flattened array
    """
    if isinstance(x, jnp.ndarray):
        return jnp.sqrt(jnp.sum(jnp.abs(x) ** 2))
    else:
        return jnp.sqrt(
            jax.tree_util.tree_reduce(
                lambda x, y: x + y,
                jax.tree_util.tree_map(lambda x: jnp.sum(jnp.abs(x) ** 2), x),
            )
        )


# --- netket/experimental/dynamics/_integrator.py: Integrator._step_adaptive (before the commit) ---
class Integrator:  # scaffolding: only the static step function of the struct.Pytree Integrator
    @staticmethod
    def _step_adaptive(
        solver,
        f: Callable,
        state: IntegratorState,
        max_dt: float | None,
        parameters: IntegratorParameters,
        norm_fn: Callable,
    ) -> IntegratorState:
        r"""
        Performs one adaptive step from current time.
        """
        flags = IntegratorFlags(0)

        if max_dt is None:
            actual_dt = state.dt
        else:
            actual_dt = jnp.minimum(state.dt, max_dt)

        # Perform the solving step
        y_tp1, y_err, solver_state = solver.step_with_error(
            f, actual_dt, state.t.value, state.y, state.solver_state
        )

        scaled_err, norm_y = scaled_error(
            y_tp1,
            y_err,
            parameters.atol,
            parameters.rtol,
            last_norm_y=state.last_norm,
            norm_fn=norm_fn,
        )

        # Propose the next time step, but limited within [0.1 dt, 5 dt] and potential
        # global limits in dt_limits. Not used when actual_dt < state.dt (i.e., the
        # integrator is doing a smaller step to hit a specific stop).
        dt_min, dt_max = parameters.dt_limits
        next_dt = propose_time_step(
            actual_dt,
            scaled_err,
            solver.error_order,
            limits=(
                (jnp.maximum(0.1 * state.dt, dt_min) if dt_min else 0.1 * state.dt),
                (jnp.minimum(5.0 * state.dt, dt_max) if dt_max else 5.0 * state.dt),
            ),
        )

        # check if next dt is NaN
        flags = set_flag_jax(
            ~jnp.isfinite(next_dt), flags, IntegratorFlags.ERROR_INVALID_DT
        )

        # check if we are at lower bound for dt
        if dt_min is not None:
            is_at_min_dt = jnp.isclose(next_dt, dt_min)
            flags = set_flag_jax(is_at_min_dt, flags, IntegratorFlags.WARN_MIN_DT)
        else:
            is_at_min_dt = False
        if dt_max is not None:
            is_at_max_dt = jnp.isclose(next_dt, dt_max)
            flags = set_flag_jax(is_at_max_dt, flags, IntegratorFlags.WARN_MAX_DT)

        # accept if error is within tolerances or we are already at the minimal step
        accept_step = jnp.logical_or(scaled_err < 1.0, is_at_min_dt)
        # accept the time step iff it is accepted by all MPI processes
        accept_step, _ = mpi_all_jax(accept_step)

        return jax.lax.cond(
            accept_step,
            # step accepted
            lambda _: state.replace(
                step_no=state.step_no + 1,
                step_no_total=state.step_no_total + 1,
                y=y_tp1,
                t=state.t + actual_dt,
                dt=jax.lax.cond(
                    actual_dt == state.dt,
                    lambda _: next_dt,
                    lambda _: state.dt,
                    None,
                ),
                last_norm=norm_y.astype(state.last_norm.dtype),
                last_scaled_error=scaled_err.astype(state.last_scaled_error.dtype),
                solver_state=solver_state,
                flags=flags | IntegratorFlags.INFO_STEP_ACCEPTED,
            ),
            # step rejected, repeat with lower dt
            lambda _: state.replace(
                step_no_total=state.step_no_total + 1,
                dt=next_dt,
                flags=flags,
            ),
            state,
        )


# --- driver: what Integrator.step / TDVP.run do, cut down --- scaffolding
def _f(t, y):  # scaffolding: dy/dt = -y
    return -y  # scaffolding


_y0 = jnp.ones(4)  # scaffolding
_state = IntegratorState(solver_state=None, step_no=jnp.asarray(0), step_no_total=jnp.asarray(0),  # scaffolding
                         t=_KahanSum(jnp.asarray(0.0)), y=_y0, dt=jnp.asarray(0.01),  # scaffolding
                         last_norm=euclidean_norm(_y0), last_scaled_error=jnp.asarray(0.0))  # scaffolding
_params = IntegratorParameters(dt=0.01, atol=0.0, rtol=1e-3)  # scaffolding
_n_steps = 10  # scaffolding
for _ in range(_n_steps):  # scaffolding
    _state = Integrator._step_adaptive(Heun(), _f, _state, None, _params, euclidean_norm)  # scaffolding
print("t", float(_state.t.value), "steps", int(_state.step_no_total), "flags", int(_state.flags))  # scaffolding
_report({"jit(cond)"}, _n_steps)  # scaffolding: one _step_adaptive call per step
