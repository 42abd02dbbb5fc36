# source: https://github.com/netket/netket/issues/2043
# expect: jit-in-loop-or-body at line 161
# runtime: COMPILES 12 CALLS 3
# why: Integrator._step_adaptive is no longer jitted but still selects the accepted/rejected state with jax.lax.cond over freshly created lambdas (and set_flag_jax does the same); run eagerly, every cond call has new branch functions, so each integration step traces and compiles the conds again ("recompiled each time the function is called").

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
import enum
from types import SimpleNamespace  # scaffolding

import jax
import jax.numpy as jnp
from flax import struct  # scaffolding: stands in for netket.utils.struct


class IntegratorFlags(enum.IntFlag):  # scaffolding: the flags the step sets
    NONE = 0
    INFO_STEP_ACCEPTED = 1
    WARN_MIN_DT = 2
    WARN_MAX_DT = 4
    ERROR_INVALID_DT = 8


@struct.dataclass
class IntegratorState:  # scaffolding: the fields _step_adaptive reads and replaces
    step_no: jax.Array
    step_no_total: jax.Array
    t: jax.Array
    y: jax.Array
    dt: jax.Array
    last_norm: jax.Array
    last_scaled_error: jax.Array
    solver_state: jax.Array
    flags: jax.Array


def mpi_all_jax(x):  # scaffolding: single process
    return x, None


def set_flag_jax(condition, flags, flag):
    """
    If `condition` is true, `flags` is updated by setting `flag` to 1.
    This is equivalent to the following code, but compatible with jax.jit:
        if condition:
            flags |= flag
    """
    return jax.lax.cond(condition, lambda x: x | flag, lambda x: x, flags)


def propose_time_step(dt, scaled_error, error_order, limits):
    SAFETY_FACTOR = 0.95
    err_exponent = -1.0 / (1 + error_order)
    return jnp.clip(
        dt * SAFETY_FACTOR * scaled_error**err_exponent,
        limits[0],
        limits[1],
    )


def scaled_error(y, y_err, atol, rtol, *, last_norm_y=None, norm_fn):
    norm_y = norm_fn(y)
    scale = (atol + jnp.maximum(norm_y, last_norm_y) * rtol) / y_err.size
    return norm_fn(y_err) / scale, norm_y


def euclidean_norm(x):
    return jnp.sqrt(jnp.sum(jnp.abs(x) ** 2))


class HeunEuler:  # scaffolding: stand-in for an adaptive RK solver
    error_order = 1

    def step_with_error(self, f, dt, t, y, solver_state):
        k1 = f(t, y)
        k2 = f(t + dt, y + dt * k1)
        y_heun = y + 0.5 * dt * (k1 + k2)
        return y_heun, y_heun - (y + dt * k1), solver_state


class Integrator:

    @staticmethod
    def _step_adaptive(solver, f, state, max_dt, parameters, norm_fn):
        flags = IntegratorFlags(0)

        if max_dt is None:
            actual_dt = state.dt
        else:
            actual_dt = jnp.minimum(state.dt, max_dt)

        # Perform the solving step
        y_tp1, y_err, solver_state = solver.step_with_error(
            f, actual_dt, state.t, state.y, state.solver_state
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


parameters = SimpleNamespace(atol=1e-3, rtol=1e-3, dt_limits=(1e-3, 1e-1))  # scaffolding
state = IntegratorState(  # scaffolding
    step_no=jnp.int32(0), step_no_total=jnp.int32(0), t=jnp.float32(0.0),
    y=jnp.ones(4), dt=jnp.float32(0.04), last_norm=jnp.float32(0.0),
    last_scaled_error=jnp.float32(0.0), solver_state=jnp.float32(0.0),
    flags=jnp.int32(0),
)
f = lambda t, y: -y  # scaffolding
solver = HeunEuler()  # scaffolding
for _ in range(3):  # scaffolding: three integration steps
    state = Integrator._step_adaptive(solver, f, state, None, parameters, euclidean_norm)
_report({"jit(cond)"}, 3)  # scaffolding
