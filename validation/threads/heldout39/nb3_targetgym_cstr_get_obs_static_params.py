# source: https://github.com/YannBerthelot/TargetGym/blob/5cb2581270bb6e5e44d16272015056db5ce7e0c5/src/target_gym/pc_gym/cstr/env.py
# expect: changing-static at line 332
# runtime: COMPILES 4 CALLS 20
# why: The CSTR environment jits get_obs with the whole CSTRParams struct in static_argnames (it does not even read it), so every parameter value in a sweep hashes to a new static key and get_obs is retraced and recompiled once per CSTRParams, while compute_next_state, which takes params as a pytree, is reused.

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
# src/target_gym/base.py
from flax import struct


@struct.dataclass
class EnvParams:
    delta_t: float = 1.0
    max_steps_in_episode: int = 1_000


@struct.dataclass
class EnvState:
    time: int


# src/target_gym/utils.py (convert_raw_action_to_range)
import jax.numpy as jnp


def convert_raw_action_to_range(raw_action, min_action, max_action):
    """
    Assuming the action is roughly in (-1,1), we rescale to it (min_action,max_action).
    """
    action = min_action + 0.5 * (jnp.clip(raw_action, -1, 1) + 1) * (
        max_action - min_action
    )
    return action


# src/target_gym/integration.py
from typing import Any, Callable, Optional, Tuple

import jax
import jax.numpy as jnp
from jax.tree_util import Partial as partial


def integrate_dynamics(
    positions: jnp.ndarray,
    delta_t: float,
    method: str = "rk4_1",
    velocities: Optional[jnp.ndarray] = None,
    compute_acceleration: Optional[
        Callable[[jnp.ndarray, jnp.ndarray], Tuple[jnp.ndarray, Any]]
    ] = None,
    compute_velocity: Optional[Callable[[jnp.ndarray], Tuple[jnp.ndarray, Any]]] = None,
):
    """
    General integrator for ODEs.

    Supports:
    - Second-order dynamics (velocities + accelerations) if `velocities` and `compute_acceleration` are given.
    - First-order dynamics (positions + velocities) if `compute_velocity` is given.

    Args:
        positions: jnp.ndarray, current position/state
        delta_t: float, integration step size
        method: str, either "euler_N" or "rkK_N" (K = 2–4, N = substeps)
        velocities: jnp.ndarray, current velocities (required for 2nd-order)
        compute_acceleration: function (v, p) -> (a, metrics), required for 2nd-order
        compute_velocity: function (p) -> velocity, required for 1st-order

    Returns:
        new_velocities (or None if 1st-order),
        new_positions,
        metrics (from the last step)
    """

    # Parse method string
    if "euler" in method:
        order, n_substeps = "euler", int(method.split("_")[1])
    elif "rk" in method:
        order, n_substeps = int(method.split("_")[0][2:]), int(method.split("_")[1])
    else:
        raise ValueError(f"Unknown integration method: {method}")

    h = delta_t / n_substeps

    # ----------------------------
    # Second-order system
    # ----------------------------
    def second_order_step(v, p, h):
        def euler(v, p, h):
            a, metrics = compute_acceleration(v, p)
            v_new = v + h * a
            p_new = p + h * v_new
            return v_new, p_new, metrics

        def rk2(v, p, h):
            a1, _ = compute_acceleration(v, p)
            v1 = v
            a2, metrics = compute_acceleration(v + 0.5 * h * a1, p + 0.5 * h * v1)
            v2 = v + 0.5 * h * a1
            v_new = v + h * a2
            p_new = p + h * v2
            return v_new, p_new, metrics

        def rk3(v, p, h):
            a1, _ = compute_acceleration(v, p)
            v1 = v
            a2, _ = compute_acceleration(v + 0.5 * h * a1, p + 0.5 * h * v1)
            v2 = v + 0.5 * h * a1
            a3, metrics = compute_acceleration(
                v - h * a1 + 2 * h * a2, p - h * v1 + 2 * h * v2
            )
            v3 = v - h * a1 + 2 * h * a2
            v_new = v + (h / 6.0) * (a1 + 4 * a2 + a3)
            p_new = p + (h / 6.0) * (v1 + 4 * v2 + v3)
            return v_new, p_new, metrics

        def rk4(v, p, h):
            a1, _ = compute_acceleration(v, p)
            v1 = v
            a2, _ = compute_acceleration(v + 0.5 * h * a1, p + 0.5 * h * v1)
            v2 = v + 0.5 * h * a1
            a3, _ = compute_acceleration(v + 0.5 * h * a2, p + 0.5 * h * v2)
            v3 = v + 0.5 * h * a2
            a4, metrics = compute_acceleration(v + h * a3, p + h * v3)
            v4 = v + h * a3
            v_new = v + (h / 6.0) * (a1 + 2 * a2 + 2 * a3 + a4)
            p_new = p + (h / 6.0) * (v1 + 2 * v2 + 2 * v3 + v4)
            return v_new, p_new, metrics

        if order == "euler":
            return euler(v, p, h)
        elif order == 2:
            return rk2(v, p, h)
        elif order == 3:
            return rk3(v, p, h)
        elif order == 4:
            return rk4(v, p, h)
        else:
            raise ValueError(f"Unsupported RK order: {order}")

    # ----------------------------
    # First-order system
    # ----------------------------
    def first_order_step(p, h):
        def euler(p, h):
            v, metrics = compute_velocity(p)
            return p + h * v, metrics

        def rk2(p, h):
            k1, _ = compute_velocity(p)
            k2, metrics = compute_velocity(p + 0.5 * h * k1)
            return p + h * k2, metrics

        def rk3(p, h):
            k1, _ = compute_velocity(p)
            k2, _ = compute_velocity(p + 0.5 * h * k1)
            k3, metrics = compute_velocity(p - h * k1 + 2 * h * k2)
            return p + (h / 6.0) * (k1 + 4 * k2 + k3), metrics

        def rk4(p, h):
            k1, _ = compute_velocity(p)
            k2, _ = compute_velocity(p + 0.5 * h * k1)
            k3, _ = compute_velocity(p + 0.5 * h * k2)
            k4, metrics = compute_velocity(p + h * k3)
            return p + (h / 6.0) * (k1 + 2 * k2 + 2 * k3 + k4), metrics

        if order == "euler":
            return euler(p, h)
        elif order == 2:
            return rk2(p, h)
        elif order == 3:
            return rk3(p, h)
        elif order == 4:
            return rk4(p, h)
        else:
            raise ValueError(f"Unsupported RK order: {order}")

    # ----------------------------
    # Run integration with substeps
    # ----------------------------
    if compute_velocity is not None:  # first-order mode

        def step_fn(p, _):
            p_new, metrics = first_order_step(p, h)
            return p_new, metrics

        new_positions, metrics = jax.lax.scan(
            step_fn, positions, xs=None, length=n_substeps
        )
        return new_positions, metrics

    elif (
        compute_acceleration is not None and velocities is not None
    ):  # second-order mode

        def step_fn(carry, _):
            v, p = carry
            v_new, p_new, metrics = second_order_step(v, p, h)
            v_new = v_new.reshape(v.shape)
            p_new = p_new.reshape(p.shape)
            return (v_new, p_new), metrics

        # if jnp.ndim(velocities) == 0:
        #     velocities = velocities.reshape((1,))
        # if jnp.ndim(positions) == 0:
        #     positions = positions.reshape((1,))
        (new_velocities, new_positions), metrics = jax.lax.scan(
            step_fn, (velocities, positions), xs=None, length=n_substeps
        )
        return new_velocities, new_positions, metrics

    else:
        raise ValueError(
            "Must provide either (compute_velocity) or (velocities + compute_acceleration)."
        )


# src/target_gym/pc_gym/cstr/env.py
from typing import Tuple

import jax
import jax.numpy as jnp
from flax import struct
from jax.tree_util import Partial as partial



@struct.dataclass
class CSTRParams(EnvParams):
    q: float = 100.0
    V: float = 100.0
    rho: float = 1000.0
    C: float = 0.239
    deltaHr: float = -5e4
    EA_over_R: float = 8750.0
    k0: float = 7.2e10
    UA: float = 5e4
    Ti: float = 350.0
    Caf: float = 1.0

    T_c_max: float = 302.0
    T_c_min: float = 295.0

    T_max: float = 350.0
    T_min: float = 300.0
    C_a_min: float = 0.7
    C_a_max: float = 1.0

    target_CA_range: Tuple[float, float] = (0.84, 0.91)
    initial_CA_range: Tuple[float, float] = (0.8, 0.85)
    initial_T: float = 330.0
    delta_t: float = 0.25
    max_steps_in_episode: int = 100


@struct.dataclass
class CSTRState(EnvState):
    C_a: float
    T: float
    target_CA: float

    # For rendering
    T_c: float


def compute_velocity(position, action, params: CSTRParams):
    T_c = action
    C_a, T = position

    rA = params.k0 * jnp.exp(-params.EA_over_R / T) * C_a

    velocity_C_a = params.q / params.V * (params.Caf - C_a) - rA
    velocity_T = (
        params.q / params.V * (params.Ti - T)
        + ((-params.deltaHr) * rA) * (1 / (params.rho * params.C))
        + params.UA * (T_c - T) * (1 / (params.rho * params.C * params.V))
    )

    return jnp.array([velocity_C_a, velocity_T]), None


@partial(jax.jit, static_argnames=["integration_method"])
def compute_next_state(
    T_c_raw: float,
    state: CSTRState,
    params: CSTRParams,
    integration_method: str = "rk4_1",
):
    """
    T_c_raw : Cooling temperature raw input
    """
    dt = params.delta_t
    T_c = convert_raw_action_to_range(
        T_c_raw, min_action=params.T_c_min, max_action=params.T_c_max
    )
    _compute_velocity = partial(compute_velocity, action=T_c, params=params)

    (C_a, T), metrics = integrate_dynamics(
        positions=jnp.array([state.C_a, state.T]),
        delta_t=dt,
        compute_velocity=_compute_velocity,
        method=integration_method,
    )
    return (
        state.replace(C_a=C_a, T=T, T_c=T_c, time=state.time + 1),
        metrics,
    )


@partial(jax.jit, static_argnames=["params"])
def get_obs(
    state: CSTRState,
    params: CSTRParams,
):
    return jnp.array([state.C_a, state.T, state.target_CA])


def check_is_terminal(state: CSTRState, params: CSTRParams, xp=jnp):
    terminated_1 = jnp.logical_or(state.T <= params.T_min, state.T >= params.T_max)
    terminated_2 = jnp.logical_or(
        state.C_a <= params.C_a_min, state.C_a >= params.C_a_max
    )
    terminated = jnp.logical_or(terminated_1, terminated_2)
    truncated = state.time >= params.max_steps_in_episode
    return terminated, truncated


def compute_reward(state: CSTRState, params: CSTRParams, xp=jnp):
    max_C_a_diff = params.C_a_max - params.C_a_min
    reward = ((max_C_a_diff - xp.abs(state.target_CA - state.C_a)) / max_C_a_diff) ** 2

    return reward


# scaffolding: a robustness sweep over the jacket heat-transfer coefficient, each value a fresh CSTRParams
UA_values = [4.0e4, 4.5e4, 5.0e4, 5.5e4]  # scaffolding
n_steps = 5  # scaffolding
calls = 0  # scaffolding
for UA in UA_values:  # scaffolding
    params = CSTRParams(UA=UA, delta_t=0.1)  # scaffolding
    state = CSTRState(C_a=0.85, T=330.0, T_c=298.0, time=0, target_CA=0.87)  # scaffolding
    for _ in range(n_steps):  # scaffolding
        state, _ = compute_next_state(0.2, state, params)  # scaffolding
        obs = get_obs(state, params)  # scaffolding
        calls += 1  # scaffolding
_report({"jit(get_obs)"}, calls)  # scaffolding
