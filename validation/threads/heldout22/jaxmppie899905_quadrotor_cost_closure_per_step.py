# source: https://github.com/riccardo-enr/jax_mppi/commit/e8999052dd725944e9a554ff427eb089ed80c27e
# expect: jit-in-loop-or-body at line 1066
# runtime: COMPILES 6 CALLS 6
# why: each control step builds a new running_cost closure for the current reference point and passes it to the unjitted mppi.command, whose lax.scan rollout is traced and compiled again for every step.
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


from dataclasses import dataclass, replace  # scaffolding
from typing import Callable, Optional, Tuple  # scaffolding

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class  # scaffolding
from jaxtyping import Array, Float  # scaffolding

# scaffolding: the jax_mppi package modules the example imports (mppi.py, dynamics/quadrotor.py, costs.create_terminal_cost,
# examples/quadrotor/trajectories.py), inlined as they are at this commit
DynamicsFn = Callable[..., jax.Array]  # scaffolding
RunningCostFn = Callable[..., jax.Array]  # scaffolding
TerminalCostFn = Callable[[jax.Array, jax.Array], jax.Array]  # scaffolding
CostFn = Callable[..., jax.Array]  # scaffolding


@dataclass(frozen=True)  # scaffolding
class MPPIConfig:  # scaffolding
    # Static config (not traced through JAX)  # scaffolding
    num_samples: int  # K  # scaffolding
    horizon: int  # T  # scaffolding
    nx: int  # scaffolding
    nu: int  # scaffolding
    lambda_: float  # scaffolding
    u_scale: float  # scaffolding
    u_per_command: int  # scaffolding
    step_dependent_dynamics: bool  # scaffolding
    rollout_samples: int  # M  # scaffolding
    rollout_var_cost: float  # scaffolding
    rollout_var_discount: float  # scaffolding
    sample_null_action: bool  # scaffolding
    noise_abs_cost: bool  # scaffolding


@register_pytree_node_class  # scaffolding
@dataclass  # scaffolding
class MPPIState:  # scaffolding
    # Dynamic state (carried through JAX transforms)  # scaffolding
    U: jax.Array  # (T, nu) nominal trajectory  # scaffolding
    u_init: jax.Array  # (nu,) default action for shift  # scaffolding
    noise_mu: jax.Array  # (nu,)  # scaffolding
    noise_sigma: jax.Array  # (nu, nu)  # scaffolding
    noise_sigma_inv: jax.Array  # scaffolding
    u_min: Optional[jax.Array]  # scaffolding
    u_max: Optional[jax.Array]  # scaffolding
    key: jax.Array  # PRNG key  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (  # scaffolding
            (  # scaffolding
                self.U,  # scaffolding
                self.u_init,  # scaffolding
                self.noise_mu,  # scaffolding
                self.noise_sigma,  # scaffolding
                self.noise_sigma_inv,  # scaffolding
                self.u_min,  # scaffolding
                self.u_max,  # scaffolding
                self.key,  # scaffolding
            ),  # scaffolding
            None,  # scaffolding
        )  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux_data, children):  # scaffolding
        return cls(*children)  # scaffolding


def _bound_action(  # scaffolding
    action: jax.Array, u_min: Optional[jax.Array], u_max: Optional[jax.Array]  # scaffolding
) -> jax.Array:  # scaffolding
    if u_min is None and u_max is None:  # scaffolding
        return action  # scaffolding
    if u_min is None:  # scaffolding
        assert u_max is not None  # scaffolding
        return jnp.minimum(action, u_max)  # scaffolding
    if u_max is None:  # scaffolding
        return jnp.maximum(action, u_min)  # scaffolding
    return jnp.clip(action, u_min, u_max)  # scaffolding


def _scaled_bounds(  # scaffolding
    u_min: Optional[jax.Array],  # scaffolding
    u_max: Optional[jax.Array],  # scaffolding
    u_scale: float,  # scaffolding
) -> Tuple[Optional[jax.Array], Optional[jax.Array]]:  # scaffolding
    if u_scale == 1.0 or u_scale == 0.0:  # scaffolding
        return u_min, u_max  # scaffolding
    u_min_scaled = None if u_min is None else (u_min / u_scale)  # scaffolding
    u_max_scaled = None if u_max is None else (u_max / u_scale)  # scaffolding
    return u_min_scaled, u_max_scaled  # scaffolding


def _shift_nominal(mppi_state: MPPIState, shift_steps: int) -> MPPIState:  # scaffolding
    if shift_steps <= 0:  # scaffolding
        return mppi_state  # scaffolding
    horizon = mppi_state.U.shape[0]  # scaffolding
    shift_steps = int(min(shift_steps, horizon))  # scaffolding
    u_control = jnp.roll(mppi_state.U, -shift_steps, axis=0)  # scaffolding
    fill = jnp.tile(mppi_state.u_init, (shift_steps, 1))  # scaffolding
    u_control = u_control.at[-shift_steps:].set(fill)  # scaffolding
    return replace(mppi_state, U=u_control)  # scaffolding


def _sample_noise(  # scaffolding
    key: jax.Array,  # scaffolding
    num_samples: int,  # scaffolding
    horizon: int,  # scaffolding
    noise_mu: jax.Array,  # scaffolding
    noise_sigma: jax.Array,  # scaffolding
    sample_null_action: bool,  # scaffolding
) -> Tuple[jax.Array, jax.Array]:  # scaffolding
    key, subkey = jax.random.split(key)  # scaffolding
    noise = jax.random.multivariate_normal(  # scaffolding
        subkey,  # scaffolding
        mean=noise_mu,  # scaffolding
        cov=noise_sigma,  # scaffolding
        shape=(num_samples, horizon),  # scaffolding
    )  # scaffolding
    if sample_null_action:  # scaffolding
        noise = noise.at[0].set(jnp.zeros((horizon, noise_mu.shape[0])))  # scaffolding
    return noise, key  # scaffolding


def _state_for_cost(state: jax.Array, nx: int) -> jax.Array:  # scaffolding
    if state.shape[-1] <= nx:  # scaffolding
        return state  # scaffolding
    return state[..., :nx]  # scaffolding


def _call_dynamics(  # scaffolding
    dynamics: DynamicsFn,  # scaffolding
    state: jax.Array,  # scaffolding
    action: jax.Array,  # scaffolding
    t: int,  # scaffolding
    step_dependent: bool,  # scaffolding
) -> jax.Array:  # scaffolding
    if step_dependent:  # scaffolding
        return dynamics(state, action, t)  # scaffolding
    return dynamics(state, action)  # scaffolding


def _call_running_cost(  # scaffolding
    running_cost: RunningCostFn,  # scaffolding
    state: jax.Array,  # scaffolding
    action: jax.Array,  # scaffolding
    t: int,  # scaffolding
    step_dependent: bool,  # scaffolding
) -> jax.Array:  # scaffolding
    if step_dependent:  # scaffolding
        return running_cost(state, action, t)  # scaffolding
    return running_cost(state, action)  # scaffolding


def _single_rollout_costs(  # scaffolding
    config: MPPIConfig,  # scaffolding
    current_obs: jax.Array,  # scaffolding
    actions: jax.Array,  # scaffolding
    dynamics: DynamicsFn,  # scaffolding
    running_cost: RunningCostFn,  # scaffolding
    terminal_cost: Optional[TerminalCostFn],  # scaffolding
) -> Tuple[jax.Array, jax.Array]:  # scaffolding
    def step_fn(state, inputs):  # scaffolding
        t, action = inputs  # scaffolding
        next_state = _call_dynamics(  # scaffolding
            dynamics, state, action, t, config.step_dependent_dynamics  # scaffolding
        )  # scaffolding
        cost_state = _state_for_cost(state, config.nx)  # scaffolding
        step_cost = _call_running_cost(  # scaffolding
            running_cost, cost_state, action, t, config.step_dependent_dynamics  # scaffolding
        )  # scaffolding
        return next_state, step_cost  # scaffolding

    ts = jnp.arange(config.horizon)  # scaffolding
    final_state, step_costs = jax.lax.scan(step_fn, current_obs, (ts, actions))  # scaffolding
    if terminal_cost is None:  # scaffolding
        terminal = jnp.array(0.0)  # scaffolding
    else:  # scaffolding
        terminal_state = _state_for_cost(final_state, config.nx)  # scaffolding
        terminal = terminal_cost(terminal_state, actions[-1])  # scaffolding
    return step_costs, terminal  # scaffolding


def _compute_rollout_costs(  # scaffolding
    config: MPPIConfig,  # scaffolding
    current_obs: jax.Array,  # scaffolding
    actions: jax.Array,  # scaffolding
    dynamics: DynamicsFn,  # scaffolding
    running_cost: RunningCostFn,  # scaffolding
    terminal_cost: Optional[TerminalCostFn],  # scaffolding
) -> jax.Array:  # scaffolding
    per_step_costs, terminal_costs = jax.vmap(  # scaffolding
        lambda a: _single_rollout_costs(  # scaffolding
            config, current_obs, a, dynamics, running_cost, terminal_cost  # scaffolding
        )  # scaffolding
    )(actions)  # scaffolding

    mean_step_costs = per_step_costs  # scaffolding
    var_step_costs = jnp.zeros_like(per_step_costs)  # scaffolding

    if config.rollout_samples > 1:  # scaffolding
        # Placeholder: allow variance penalty without explicit stochastic rollouts.  # scaffolding
        mean_step_costs = per_step_costs  # scaffolding
        var_step_costs = jnp.zeros_like(per_step_costs)  # scaffolding

    var_discount = config.rollout_var_discount ** jnp.arange(config.horizon)  # scaffolding
    var_penalty = config.rollout_var_cost * jnp.sum(  # scaffolding
        var_step_costs * var_discount, axis=1  # scaffolding
    )  # scaffolding
    return jnp.sum(mean_step_costs, axis=1) + terminal_costs + var_penalty  # scaffolding


def _compute_noise_cost(  # scaffolding
    noise: jax.Array,  # scaffolding
    noise_sigma_inv: jax.Array,  # scaffolding
    noise_abs_cost: bool,  # scaffolding
) -> jax.Array:  # scaffolding
    if noise_abs_cost:  # scaffolding
        abs_noise = jnp.abs(noise)  # scaffolding
        quad = jnp.einsum(  # scaffolding
            "ktd,df,ktf->kt", abs_noise, jnp.abs(noise_sigma_inv), abs_noise  # scaffolding
        )  # scaffolding
    else:  # scaffolding
        quad = jnp.einsum("ktd,df,ktf->kt", noise, noise_sigma_inv, noise)  # scaffolding
    return 0.5 * jnp.sum(quad, axis=1)  # scaffolding


def _compute_weights(costs: jax.Array, lambda_: float) -> jax.Array:  # scaffolding
    min_cost = jnp.min(costs)  # scaffolding
    scaled = -(costs - min_cost) / lambda_  # scaffolding
    return jax.nn.softmax(scaled)  # scaffolding


def create(  # scaffolding
    nx: int,  # scaffolding
    nu: int,  # scaffolding
    noise_sigma: jax.Array,  # scaffolding
    num_samples: int = 100,  # scaffolding
    horizon: int = 15,  # scaffolding
    lambda_: float = 1.0,  # scaffolding
    noise_mu: Optional[jax.Array] = None,  # scaffolding
    u_min: Optional[jax.Array] = None,  # scaffolding
    u_max: Optional[jax.Array] = None,  # scaffolding
    u_init: Optional[jax.Array] = None,  # scaffolding
    U_init: Optional[jax.Array] = None,  # scaffolding
    u_scale: float = 1.0,  # scaffolding
    u_per_command: int = 1,  # scaffolding
    step_dependent_dynamics: bool = False,  # scaffolding
    rollout_samples: int = 1,  # scaffolding
    rollout_var_cost: float = 0.0,  # scaffolding
    rollout_var_discount: float = 0.95,  # scaffolding
    sample_null_action: bool = False,  # scaffolding
    noise_abs_cost: bool = False,  # scaffolding
    key: Optional[jax.Array] = None,  # scaffolding
) -> Tuple[MPPIConfig, MPPIState]:  # scaffolding
    """Factory: create config + initial state."""  # scaffolding
    if key is None:  # scaffolding
        key = jax.random.PRNGKey(0)  # scaffolding

    config = MPPIConfig(  # scaffolding
        num_samples=num_samples,  # scaffolding
        horizon=horizon,  # scaffolding
        nx=nx,  # scaffolding
        nu=nu,  # scaffolding
        lambda_=lambda_,  # scaffolding
        u_scale=u_scale,  # scaffolding
        u_per_command=u_per_command,  # scaffolding
        step_dependent_dynamics=step_dependent_dynamics,  # scaffolding
        rollout_samples=rollout_samples,  # scaffolding
        rollout_var_cost=rollout_var_cost,  # scaffolding
        rollout_var_discount=rollout_var_discount,  # scaffolding
        sample_null_action=sample_null_action,  # scaffolding
        noise_abs_cost=noise_abs_cost,  # scaffolding
    )  # scaffolding

    # Initialize state variables  # scaffolding
    if noise_mu is None:  # scaffolding
        noise_mu = jnp.zeros(nu)  # scaffolding

    # Ensure noise_sigma is 2D  # scaffolding
    if noise_sigma.ndim == 1:  # scaffolding
        noise_sigma = jnp.diag(noise_sigma)  # scaffolding

    noise_sigma_inv = jnp.linalg.inv(noise_sigma)  # scaffolding

    if u_init is None:  # scaffolding
        u_init = jnp.zeros(nu)  # scaffolding

    if U_init is None:  # scaffolding
        U_init = jnp.tile(u_init, (horizon, 1))  # scaffolding

    mppi_state = MPPIState(  # scaffolding
        U=U_init,  # scaffolding
        u_init=u_init,  # scaffolding
        noise_mu=noise_mu,  # scaffolding
        noise_sigma=noise_sigma,  # scaffolding
        noise_sigma_inv=noise_sigma_inv,  # scaffolding
        u_min=None if u_min is None else jnp.array(u_min),  # scaffolding
        u_max=None if u_max is None else jnp.array(u_max),  # scaffolding
        key=key,  # scaffolding
    )  # scaffolding

    return config, mppi_state  # scaffolding


def command(  # scaffolding
    config: MPPIConfig,  # scaffolding
    mppi_state: MPPIState,  # scaffolding
    current_obs: jax.Array,  # scaffolding
    dynamics: DynamicsFn,  # scaffolding
    running_cost: RunningCostFn,  # scaffolding
    terminal_cost: Optional[TerminalCostFn] = None,  # scaffolding
    shift: bool = True,  # scaffolding
) -> Tuple[jax.Array, MPPIState]:  # scaffolding
    """Compute optimal action and return updated state."""  # scaffolding
    noise, key = _sample_noise(  # scaffolding
        mppi_state.key,  # scaffolding
        config.num_samples,  # scaffolding
        config.horizon,  # scaffolding
        mppi_state.noise_mu,  # scaffolding
        mppi_state.noise_sigma,  # scaffolding
        config.sample_null_action,  # scaffolding
    )  # scaffolding

    perturbed_actions = mppi_state.U[None, :, :] + noise  # scaffolding
    scaled_actions = perturbed_actions * config.u_scale  # scaffolding
    scaled_actions = _bound_action(  # scaffolding
        scaled_actions, mppi_state.u_min, mppi_state.u_max  # scaffolding
    )  # scaffolding

    rollout_costs = _compute_rollout_costs(  # scaffolding
        config,  # scaffolding
        current_obs,  # scaffolding
        scaled_actions,  # scaffolding
        dynamics,  # scaffolding
        running_cost,  # scaffolding
        terminal_cost,  # scaffolding
    )  # scaffolding
    noise_costs = _compute_noise_cost(  # scaffolding
        noise, mppi_state.noise_sigma_inv, config.noise_abs_cost  # scaffolding
    )  # scaffolding
    total_costs = rollout_costs + noise_costs  # scaffolding

    weights = _compute_weights(total_costs, config.lambda_)  # scaffolding
    delta_U = jnp.tensordot(weights, noise, axes=1)  # scaffolding
    U_new = mppi_state.U + delta_U  # scaffolding

    u_min_scaled, u_max_scaled = _scaled_bounds(  # scaffolding
        mppi_state.u_min, mppi_state.u_max, config.u_scale  # scaffolding
    )  # scaffolding
    U_new = _bound_action(U_new, u_min_scaled, u_max_scaled)  # scaffolding

    action_seq = U_new[: config.u_per_command]  # scaffolding
    scaled_action_seq = _bound_action(  # scaffolding
        action_seq * config.u_scale, mppi_state.u_min, mppi_state.u_max  # scaffolding
    )  # scaffolding
    action = (  # scaffolding
        scaled_action_seq[0] if config.u_per_command == 1 else scaled_action_seq  # scaffolding
    )  # scaffolding

    new_state = replace(mppi_state, U=U_new, key=key)  # scaffolding
    if shift:  # scaffolding
        new_state = _shift_nominal(new_state, config.u_per_command)  # scaffolding

    return action, new_state  # scaffolding


def reset(  # scaffolding
    config: MPPIConfig, mppi_state: MPPIState, key: jax.Array  # scaffolding
) -> MPPIState:  # scaffolding
    """Reset nominal trajectory."""  # scaffolding
    U_new = jnp.tile(mppi_state.u_init, (config.horizon, 1))  # scaffolding
    return replace(mppi_state, U=U_new, key=key)  # scaffolding


def get_rollouts(  # scaffolding
    config: MPPIConfig,  # scaffolding
    mppi_state: MPPIState,  # scaffolding
    current_obs: jax.Array,  # scaffolding
    dynamics: DynamicsFn,  # scaffolding
    num_rollouts: int = 1,  # scaffolding
) -> jax.Array:  # scaffolding
    """Forward-simulate trajectories for visualization."""  # scaffolding
    noise, key = _sample_noise(  # scaffolding
        mppi_state.key,  # scaffolding
        num_rollouts,  # scaffolding
        config.horizon,  # scaffolding
        mppi_state.noise_mu,  # scaffolding
        mppi_state.noise_sigma,  # scaffolding
        sample_null_action=False,  # scaffolding
    )  # scaffolding
    perturbed_actions = mppi_state.U[None, :, :] + noise  # scaffolding
    scaled_actions = perturbed_actions * config.u_scale  # scaffolding
    scaled_actions = _bound_action(  # scaffolding
        scaled_actions, mppi_state.u_min, mppi_state.u_max  # scaffolding
    )  # scaffolding

    def rollout_single(actions, obs):  # scaffolding
        def step_fn(state, inputs):  # scaffolding
            t, action = inputs  # scaffolding
            next_state = _call_dynamics(  # scaffolding
                dynamics, state, action, t, config.step_dependent_dynamics  # scaffolding
            )  # scaffolding
            return next_state, _state_for_cost(next_state, config.nx)  # scaffolding

        ts = jnp.arange(config.horizon)  # scaffolding
        init_state = obs  # scaffolding
        _, states = jax.lax.scan(step_fn, init_state, (ts, actions))  # scaffolding
        init_out = _state_for_cost(init_state, config.nx)  # scaffolding
        return jnp.concatenate([init_out[None, :], states], axis=0)  # scaffolding

    if current_obs.ndim == 1:  # scaffolding
        rollouts = jax.vmap(lambda a: rollout_single(a, current_obs))(  # scaffolding
            scaled_actions  # scaffolding
        )  # scaffolding
    else:  # scaffolding
        rollouts = jax.vmap(  # scaffolding
            lambda obs: jax.vmap(lambda a: rollout_single(a, obs))(  # scaffolding
                scaled_actions  # scaffolding
            )  # scaffolding
        )(current_obs)  # scaffolding

    return rollouts  # scaffolding


class mppi:  # scaffolding: the jax_mppi.mppi module
    create = staticmethod(create)  # scaffolding
    command = staticmethod(command)  # scaffolding


def quaternion_to_rotation_matrix(q: Float[Array, "4"]) -> Float[Array, "3 3"]:  # scaffolding
    """Convert unit quaternion to rotation matrix (body FRD to world NED).  # scaffolding

    Args:  # scaffolding
        q: Unit quaternion [qw, qx, qy, qz]  # scaffolding

    Returns:  # scaffolding
        R: 3x3 rotation matrix from FRD body to NED world frame  # scaffolding
    """  # scaffolding
    qw, qx, qy, qz = q[0], q[1], q[2], q[3]  # scaffolding

    # Rotation matrix from quaternion (body to world)  # scaffolding
    R = jnp.array([  # scaffolding
        [  # scaffolding
            1 - 2 * (qy**2 + qz**2),  # scaffolding
            2 * (qx * qy - qw * qz),  # scaffolding
            2 * (qx * qz + qw * qy),  # scaffolding
        ],  # scaffolding
        [  # scaffolding
            2 * (qx * qy + qw * qz),  # scaffolding
            1 - 2 * (qx**2 + qz**2),  # scaffolding
            2 * (qy * qz - qw * qx),  # scaffolding
        ],  # scaffolding
        [  # scaffolding
            2 * (qx * qz - qw * qy),  # scaffolding
            2 * (qy * qz + qw * qx),  # scaffolding
            1 - 2 * (qx**2 + qy**2),  # scaffolding
        ],  # scaffolding
    ])  # scaffolding

    return R  # scaffolding


def normalize_quaternion(q: Float[Array, "4"]) -> Float[Array, "4"]:  # scaffolding
    """Normalize quaternion to unit norm.  # scaffolding

    Args:  # scaffolding
        q: Quaternion [qw, qx, qy, qz]  # scaffolding

    Returns:  # scaffolding
        Normalized unit quaternion  # scaffolding
    """  # scaffolding
    norm = jnp.linalg.norm(q)  # scaffolding
    # Add small epsilon to avoid division by zero  # scaffolding
    return q / (norm + 1e-8)  # scaffolding


def quaternion_multiply(  # scaffolding
    q1: Float[Array, "4"], q2: Float[Array, "4"]  # scaffolding
) -> Float[Array, "4"]:  # scaffolding
    """Multiply two quaternions: q1 * q2.  # scaffolding

    Args:  # scaffolding
        q1: First quaternion [qw, qx, qy, qz]  # scaffolding
        q2: Second quaternion [qw, qx, qy, qz]  # scaffolding

    Returns:  # scaffolding
        Product quaternion q1 * q2  # scaffolding
    """  # scaffolding
    w1, x1, y1, z1 = q1[0], q1[1], q1[2], q1[3]  # scaffolding
    w2, x2, y2, z2 = q2[0], q2[1], q2[2], q2[3]  # scaffolding

    return jnp.array([  # scaffolding
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,  # scaffolding
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,  # scaffolding
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,  # scaffolding
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,  # scaffolding
    ])  # scaffolding


def quaternion_derivative(  # scaffolding
    q: Float[Array, "4"], omega: Float[Array, "3"]  # scaffolding
) -> Float[Array, "4"]:  # scaffolding
    """Compute quaternion time derivative from angular velocity.  # scaffolding

    Uses: q_dot = 0.5 * q ⊗ [0, omega]  # scaffolding

    Args:  # scaffolding
        q: Current quaternion [qw, qx, qy, qz]  # scaffolding
        omega: Angular velocity in body frame [wx, wy, wz]  # scaffolding

    Returns:  # scaffolding
        Time derivative of quaternion  # scaffolding
    """  # scaffolding
    qw, qx, qy, qz = q[0], q[1], q[2], q[3]  # scaffolding
    wx, wy, wz = omega[0], omega[1], omega[2]  # scaffolding

    # q_dot = 0.5 * Omega(omega) @ q  # scaffolding
    q_dot = 0.5 * jnp.array([  # scaffolding
        -wx * qx - wy * qy - wz * qz,  # qw_dot  # scaffolding
        wx * qw + wz * qy - wy * qz,  # qx_dot  # scaffolding
        wy * qw - wz * qx + wx * qz,  # qy_dot  # scaffolding
        wz * qw + wy * qx - wx * qy,  # qz_dot  # scaffolding
    ])  # scaffolding

    return q_dot  # scaffolding


def quadrotor_dynamics_dt(  # scaffolding
    state: Float[Array, "13"],  # scaffolding
    action: Float[Array, "4"],  # scaffolding
    dt: float,  # scaffolding
    mass: float = 1.0,  # scaffolding
    gravity: float = 9.81,  # scaffolding
    tau_omega: float = 0.05,  # scaffolding
) -> Float[Array, "13"]:  # scaffolding
    """Compute state derivative for quadrotor dynamics.  # scaffolding

    This computes dx/dt for the 13D quadrotor state.  # scaffolding

    Args:  # scaffolding
        state: [px, py, pz, vx, vy, vz, qw, qx, qy, qz, wx, wy, wz]  # scaffolding
        action: [T, wx_cmd, wy_cmd, wz_cmd]  # scaffolding
        dt: Time step (not used in derivative, but kept for API consistency)  # scaffolding
        mass: Quadrotor mass (kg)  # scaffolding
        gravity: Gravity constant (m/s², positive down in NED)  # scaffolding
        tau_omega: Time constant for angular velocity tracking (s)  # scaffolding

    Returns:  # scaffolding
        State derivative dx/dt  # scaffolding
    """  # scaffolding
    # Extract state components  # scaffolding
    pos = state[0:3]  # scaffolding
    vel = state[3:6]  # scaffolding
    quat = state[6:10]  # [qw, qx, qy, qz]  # scaffolding
    omega = state[10:13]  # angular velocity in FRD body frame  # scaffolding

    # Extract control  # scaffolding
    thrust = action[0]  # positive magnitude  # scaffolding
    omega_cmd = action[1:4]  # scaffolding

    # Rotation matrix from FRD body to NED world frame  # scaffolding
    R = quaternion_to_rotation_matrix(quat)  # scaffolding

    # Translational dynamics (NED world frame)  # scaffolding
    # Gravity: positive Z in NED (downward)  # scaffolding
    f_gravity = jnp.array([0.0, 0.0, mass * gravity])  # scaffolding
    # Thrust in body frame: [0, 0, -T] (upward in FRD)  # scaffolding
    # Transform to world frame  # scaffolding
    f_thrust = R @ jnp.array([0.0, 0.0, -thrust])  # scaffolding
    accel = (f_gravity + f_thrust) / mass  # scaffolding

    # Rotational dynamics (FRD body frame, first-order model)  # scaffolding
    omega_dot = (omega_cmd - omega) / tau_omega  # scaffolding

    # Quaternion kinematics  # scaffolding
    q_dot = quaternion_derivative(quat, omega)  # scaffolding

    # State derivative  # scaffolding
    state_dot = jnp.concatenate([vel, accel, q_dot, omega_dot])  # scaffolding

    return state_dot  # scaffolding


def rk4_step(  # scaffolding
    state: Float[Array, "13"],  # scaffolding
    action: Float[Array, "4"],  # scaffolding
    dt: float,  # scaffolding
    mass: float,  # scaffolding
    gravity: float,  # scaffolding
    tau_omega: float,  # scaffolding
) -> Float[Array, "13"]:  # scaffolding
    """Single RK4 integration step for quadrotor dynamics.  # scaffolding

    Args:  # scaffolding
        state: Current state  # scaffolding
        action: Control input  # scaffolding
        dt: Time step  # scaffolding
        mass: Quadrotor mass  # scaffolding
        gravity: Gravity constant  # scaffolding
        tau_omega: Angular velocity time constant  # scaffolding

    Returns:  # scaffolding
        Next state after dt using RK4 integration  # scaffolding
    """  # scaffolding
    # RK4 integration  # scaffolding
    k1 = quadrotor_dynamics_dt(state, action, dt, mass, gravity, tau_omega)  # scaffolding
    k2 = quadrotor_dynamics_dt(  # scaffolding
        state + 0.5 * dt * k1, action, dt, mass, gravity, tau_omega  # scaffolding
    )  # scaffolding
    k3 = quadrotor_dynamics_dt(  # scaffolding
        state + 0.5 * dt * k2, action, dt, mass, gravity, tau_omega  # scaffolding
    )  # scaffolding
    k4 = quadrotor_dynamics_dt(  # scaffolding
        state + dt * k3, action, dt, mass, gravity, tau_omega  # scaffolding
    )  # scaffolding

    next_state = state + (dt / 6.0) * (k1 + 2 * k2 + 2 * k3 + k4)  # scaffolding

    return next_state  # scaffolding


def create_quadrotor_dynamics(  # scaffolding
    dt: float = 0.01,  # scaffolding
    mass: float = 1.0,  # scaffolding
    gravity: float = 9.81,  # scaffolding
    tau_omega: float = 0.05,  # scaffolding
    u_min: Float[Array, "4"] | None = None,  # scaffolding
    u_max: Float[Array, "4"] | None = None,  # scaffolding
):  # scaffolding
    """Create quadrotor dynamics function with specified parameters.  # scaffolding

    This factory function creates a dynamics function following the library's pattern,  # scaffolding
    with RK4 integration for better accuracy.  # scaffolding

    Frame conventions: NED (world), FRD (body)  # scaffolding

    Args:  # scaffolding
        dt: Integration time step (s)  # scaffolding
        mass: Quadrotor mass (kg)  # scaffolding
        gravity: Gravity constant (m/s², positive down in NED)  # scaffolding
        tau_omega: Time constant for angular velocity tracking (s)  # scaffolding
        u_min: Minimum control bounds [T_min, wx_min, wy_min, wz_min]  # scaffolding
        u_max: Maximum control bounds [T_max, wx_max, wy_max, wz_max]  # scaffolding

    Returns:  # scaffolding
        Dynamics function that takes (state, action) and returns next_state  # scaffolding

    Example:  # scaffolding
        >>> dynamics = create_quadrotor_dynamics(dt=0.01, mass=1.0)  # scaffolding
        >>> state = jnp.zeros(13)  # scaffolding
        >>> state = state.at[6].set(1.0)  # qw = 1 (identity quaternion)  # scaffolding
        >>> action = jnp.array([mass * 9.81, 0.0, 0.0, 0.0])  # hover thrust  # scaffolding
        >>> next_state = dynamics(state, action)  # scaffolding
    """  # scaffolding
    # Default control bounds if not provided  # scaffolding
    if u_min is None:  # scaffolding
        u_min = jnp.array([0.0, -10.0, -10.0, -10.0])  # scaffolding
    if u_max is None:  # scaffolding
        u_max = jnp.array([4.0 * mass * gravity, 10.0, 10.0, 10.0])  # scaffolding

    def dynamics(  # scaffolding
        state: Float[Array, "13"], action: Float[Array, "4"]  # scaffolding
    ) -> Float[Array, "13"]:  # scaffolding
        """Quadrotor dynamics with RK4 integration.  # scaffolding

        State: [px, py, pz, vx, vy, vz, qw, qx, qy, qz, wx, wy, wz] (13D)  # scaffolding
            - Position/velocity in NED world frame  # scaffolding
            - Quaternion: body FRD to world NED  # scaffolding
            - Angular velocity in FRD body frame  # scaffolding

        Action: [T, wx_cmd, wy_cmd, wz_cmd] (4D)  # scaffolding
            - T: thrust magnitude (positive, acts in -Z body direction)  # scaffolding
            - w_cmd: angular rate commands in FRD body frame  # scaffolding

        Returns:  # scaffolding
            next_state after dt using RK4 integration  # scaffolding
        """  # scaffolding
        # Clip control to bounds  # scaffolding
        action_clipped = jnp.clip(action, u_min, u_max)  # scaffolding

        # RK4 integration  # scaffolding
        next_state = rk4_step(  # scaffolding
            state, action_clipped, dt, mass, gravity, tau_omega  # scaffolding
        )  # scaffolding

        # Normalize quaternion to maintain unit norm  # scaffolding
        next_quat = next_state[6:10]  # scaffolding
        next_quat = normalize_quaternion(next_quat)  # scaffolding
        next_state = next_state.at[6:10].set(next_quat)  # scaffolding

        return next_state  # scaffolding

    return dynamics  # scaffolding


def quaternion_distance(  # scaffolding
    q1: Float[Array, "4"], q2: Float[Array, "4"]  # scaffolding
) -> Float[Array, ""]:  # scaffolding
    """Compute distance between two unit quaternions.  # scaffolding

    Uses: d = 1 - |q1^T q2|  # scaffolding

    This metric is 0 when quaternions represent the same orientation  # scaffolding
    and approaches 1 as they diverge.  # scaffolding

    Args:  # scaffolding
        q1: First unit quaternion [qw, qx, qy, qz]  # scaffolding
        q2: Second unit quaternion [qw, qx, qy, qz]  # scaffolding

    Returns:  # scaffolding
        Distance metric in [0, 1]  # scaffolding
    """  # scaffolding
    # Inner product  # scaffolding
    dot = jnp.abs(jnp.dot(q1, q2))  # scaffolding
    # Clamp to avoid numerical issues  # scaffolding
    dot = jnp.clip(dot, 0.0, 1.0)  # scaffolding
    return 1.0 - dot  # scaffolding


def create_terminal_cost(  # scaffolding
    Q_pos: Float[Array, "3 3"],  # scaffolding
    Q_vel: Float[Array, "3 3"],  # scaffolding
    Q_att: Float[Array, "4 4"],  # scaffolding
    goal_position: Float[Array, "3"],  # scaffolding
    goal_quaternion: Float[Array, "4"] | None = None,  # scaffolding
) -> CostFn:  # scaffolding
    """Create terminal cost for goal reaching.  # scaffolding

    Terminal cost penalizes deviation from goal state at end of horizon.  # scaffolding

    Args:  # scaffolding
        Q_pos: Terminal position error weight matrix (3x3)  # scaffolding
        Q_vel: Terminal velocity weight matrix (3x3)  # scaffolding
        Q_att: Terminal attitude error weight matrix (4x4)  # scaffolding
        goal_position: Goal position in NED frame  # scaffolding
        goal_quaternion: Goal orientation (default: level flight)  # scaffolding

    Returns:  # scaffolding
        Terminal cost function  # scaffolding
    """  # scaffolding
    if goal_quaternion is None:  # scaffolding
        goal_quaternion = jnp.array([1.0, 0.0, 0.0, 0.0])  # scaffolding

    def terminal_cost(  # scaffolding
        state: Float[Array, "13"],  # scaffolding
        last_action: Optional[Float[Array, "4"]] = None,  # scaffolding
    ) -> Float[Array, ""]:  # scaffolding
        # Extract state components  # scaffolding
        pos = state[0:3]  # scaffolding
        vel = state[3:6]  # scaffolding
        quat = state[6:10]  # scaffolding

        # Position error  # scaffolding
        pos_error = pos - goal_position  # scaffolding
        cost_pos = pos_error @ Q_pos @ pos_error  # scaffolding

        # Velocity penalty (want to arrive with zero velocity)  # scaffolding
        cost_vel = vel @ Q_vel @ vel  # scaffolding

        # Attitude error  # scaffolding
        att_dist = quaternion_distance(quat, goal_quaternion)  # scaffolding
        cost_att = att_dist * jnp.trace(Q_att)  # scaffolding

        return cost_pos + cost_vel + cost_att  # type: ignore  # scaffolding

    return terminal_cost  # scaffolding


def generate_circle_trajectory(  # scaffolding
    radius: float,  # scaffolding
    height: float,  # scaffolding
    period: float,  # scaffolding
    duration: float,  # scaffolding
    dt: float,  # scaffolding
    center: Float[Array, "2"] | None = None,  # scaffolding
    phase: float = 0.0,  # scaffolding
) -> Float[Array, "T 6"]:  # scaffolding
    """Generate circular trajectory in horizontal plane (NED frame).  # scaffolding

    The trajectory follows a circle in the xy-plane at constant altitude.  # scaffolding

    Args:  # scaffolding
        radius: Circle radius in xy plane (m)  # scaffolding
        height: Altitude in NED frame (m)  # scaffolding
               Negative values = above ground (e.g., -5.0 for 5m altitude)  # scaffolding
               Positive values = below ground (uncommon)  # scaffolding
        period: Period of one complete revolution (s)  # scaffolding
        duration: Total trajectory duration (s)  # scaffolding
        dt: Time step (s)  # scaffolding
        center: Circle center in xy plane [cx, cy] (default: origin [0, 0])  # scaffolding
        phase: Initial phase angle (rad) (default: 0)  # scaffolding

    Returns:  # scaffolding
        Trajectory array [T x 6] with [px, py, pz, vx, vy, vz]  # scaffolding
        where T = ceil(duration / dt)  # scaffolding

    Example:  # scaffolding
        >>> # Circle at 5m altitude, 3m radius, 10s period  # scaffolding
        >>> traj = generate_circle_trajectory(  # scaffolding
        ...     radius=3.0,  # scaffolding
        ...     height=-5.0,  # scaffolding
        ...     period=10.0,  # scaffolding
        ...     duration=20.0,  # scaffolding
        ...     dt=0.01  # scaffolding
        ... )  # scaffolding
    """  # scaffolding
    if center is None:  # scaffolding
        center = jnp.array([0.0, 0.0])  # scaffolding

    num_steps = int(jnp.ceil(duration / dt))  # scaffolding
    t = jnp.arange(num_steps) * dt  # scaffolding
    omega = 2 * jnp.pi / period  # scaffolding

    # Position  # scaffolding
    x = center[0] + radius * jnp.cos(omega * t + phase)  # scaffolding
    y = center[1] + radius * jnp.sin(omega * t + phase)  # scaffolding
    z = jnp.ones_like(t) * height  # Constant altitude  # scaffolding

    # Velocity (time derivatives)  # scaffolding
    vx = -radius * omega * jnp.sin(omega * t + phase)  # scaffolding
    vy = radius * omega * jnp.cos(omega * t + phase)  # scaffolding
    vz = jnp.zeros_like(t)  # scaffolding

    # Stack into trajectory array [T x 6]  # scaffolding
    trajectory = jnp.stack([x, y, z, vx, vy, vz], axis=1)  # scaffolding

    return trajectory  # scaffolding


def compute_trajectory_metrics(  # scaffolding
    trajectory: Float[Array, "T 6"],  # scaffolding
    dt: float,  # scaffolding
) -> dict[str, float]:  # scaffolding
    """Compute metrics for trajectory analysis.  # scaffolding

    Args:  # scaffolding
        trajectory: Trajectory array [T x 6] with [px, py, pz, vx, vy, vz]  # scaffolding
        dt: Time step (s)  # scaffolding

    Returns:  # scaffolding
        Dictionary with trajectory metrics:  # scaffolding
            - total_distance: Total path length (m)  # scaffolding
            - max_velocity: Maximum velocity magnitude (m/s)  # scaffolding
            - avg_velocity: Average velocity magnitude (m/s)  # scaffolding
            - max_acceleration: Maximum acceleration magnitude (m/s²)  # scaffolding
            - avg_acceleration: Average acceleration magnitude (m/s²)  # scaffolding

    Example:  # scaffolding
        >>> traj = generate_circle_trajectory(3.0, -5.0, 10.0, 20.0, 0.01)  # scaffolding
        >>> metrics = compute_trajectory_metrics(traj, dt=0.01)  # scaffolding
        >>> print(f"Max velocity: {metrics['max_velocity']:.2f} m/s")  # scaffolding
    """  # scaffolding
    pos = trajectory[:, 0:3]  # scaffolding
    vel = trajectory[:, 3:6]  # scaffolding

    # Distance traveled  # scaffolding
    pos_diff = jnp.diff(pos, axis=0)  # scaffolding
    distances = jnp.linalg.norm(pos_diff, axis=1)  # scaffolding
    total_distance = float(jnp.sum(distances))  # scaffolding

    # Velocity magnitudes  # scaffolding
    vel_magnitudes = jnp.linalg.norm(vel, axis=1)  # scaffolding
    max_velocity = float(jnp.max(vel_magnitudes))  # scaffolding
    avg_velocity = float(jnp.mean(vel_magnitudes))  # scaffolding

    # Acceleration (finite difference)  # scaffolding
    acc = jnp.diff(vel, axis=0) / dt  # scaffolding
    acc_magnitudes = jnp.linalg.norm(acc, axis=1)  # scaffolding
    max_acceleration = float(jnp.max(acc_magnitudes))  # scaffolding
    avg_acceleration = float(jnp.mean(acc_magnitudes))  # scaffolding

    return {  # scaffolding
        "total_distance": total_distance,  # scaffolding
        "max_velocity": max_velocity,  # scaffolding
        "avg_velocity": avg_velocity,  # scaffolding
        "max_acceleration": max_acceleration,  # scaffolding
        "avg_acceleration": avg_acceleration,  # scaffolding
    }  # scaffolding


def create_tracking_cost_at_time(
    Q_pos: jax.Array,
    Q_vel: jax.Array,
    R: jax.Array,
    ref_pos: jax.Array,
    ref_vel: jax.Array,
):
    """Create trajectory tracking cost for a specific reference point.

    Args:
        Q_pos: Position error weight matrix
        Q_vel: Velocity error weight matrix
        R: Control effort weight matrix
        ref_pos: Reference position [3]
        ref_vel: Reference velocity [3]

    Returns:
        Cost function that takes (state, action)
    """

    def cost_fn(state: jax.Array, action: jax.Array) -> jax.Array:
        # Position tracking error
        pos_error = state[0:3] - ref_pos
        cost_pos = pos_error @ Q_pos @ pos_error

        # Velocity tracking error
        vel_error = state[3:6] - ref_vel
        cost_vel = vel_error @ Q_vel @ vel_error

        # Control effort
        cost_control = action @ R @ action

        return cost_pos + cost_vel + cost_control

    return cost_fn


def run_quadrotor_circle(
    num_steps: int = 1000,
    num_samples: int = 1000,
    horizon: int = 30,
    lambda_: float = 1.0,
    radius: float = 3.0,
    period: float = 15.0,
    visualize: bool = False,
    seed: int = 0,
):
    """Run MPPI on quadrotor circular trajectory tracking task.

    Args:
        num_steps: Number of control steps to simulate
        num_samples: Number of MPPI samples (K)
        horizon: MPPI planning horizon (T)
        lambda_: Temperature parameter for MPPI
        radius: Circle radius (m)
        period: Time for one complete circle (s)
        visualize: Whether to plot results (requires matplotlib)
        seed: Random seed

    Returns:
        states: (num_steps+1, 13) trajectory of states
        actions: (num_steps, 4) trajectory of actions
        costs: (num_steps,) trajectory of costs
        reference: (num_steps, 6) reference trajectory
    """
    # Initialize MPPI
    key = jax.random.PRNGKey(seed)

    # State and action dimensions
    nx = 13  # [px, py, pz, vx, vy, vz, qw, qx, qy, qz, wx, wy, wz]
    nu = 4   # [thrust, wx_cmd, wy_cmd, wz_cmd]

    # Physical parameters
    mass = 1.0  # kg
    gravity = 9.81  # m/s^2
    dt = 0.02  # 50 Hz control rate

    # Generate circular reference trajectory
    height = -5.0  # 5m altitude in NED
    duration = num_steps * dt
    reference = generate_circle_trajectory(
        radius=radius,
        height=height,
        period=period,
        duration=duration,
        dt=dt,
    )

    print("\nTrajectory metrics:")
    metrics = compute_trajectory_metrics(reference, dt)
    for metric_name, value in metrics.items():
        print(f"  {metric_name}: {value:.3f}")

    # Create dynamics
    u_min = jnp.array([0.0, -5.0, -5.0, -5.0])
    u_max = jnp.array([4.0 * mass * gravity, 5.0, 5.0, 5.0])

    dynamics = create_quadrotor_dynamics(
        dt=dt,
        mass=mass,
        gravity=gravity,
        tau_omega=0.05,
        u_min=u_min,
        u_max=u_max,
    )

    # Cost function weights
    Q_pos = jnp.eye(3) * 50.0   # Position error weight
    Q_vel = jnp.eye(3) * 10.0   # Velocity error weight
    R = jnp.diag(jnp.array([0.01, 0.1, 0.1, 0.1]))  # Control effort

    # Terminal cost (track last reference point)
    goal_position = reference[-1, 0:3]
    goal_quaternion = jnp.array([1.0, 0.0, 0.0, 0.0])

    terminal_cost_fn = create_terminal_cost(
        Q_pos * 10.0, Q_vel * 10.0, jnp.eye(4) * 5.0,
        goal_position, goal_quaternion
    )

    # Noise covariance (exploration in control space)
    noise_sigma = jnp.diag(jnp.array([5.0, 1.0, 1.0, 1.0]))

    # Create MPPI controller
    config, mppi_state = mppi.create(
        nx=nx,
        nu=nu,
        noise_sigma=noise_sigma,
        num_samples=num_samples,
        horizon=horizon,
        lambda_=lambda_,
        u_min=u_min,
        u_max=u_max,
        key=key,
    )

    # Initial state: start at first reference point
    state = jnp.array([
        reference[0, 0], reference[0, 1], reference[0, 2],  # start position
        0.0, 0.0, 0.0,                                       # zero initial velocity
        1.0, 0.0, 0.0, 0.0,                                  # level quaternion
        0.0, 0.0, 0.0                                        # zero angular velocity
    ])

    # Storage for trajectory
    states = [state]
    actions_taken = []
    costs_history = []

    print("\nRunning MPPI on quadrotor circular trajectory tracking...")
    print(f"  Samples: {num_samples}, Horizon: {horizon}, Lambda: {lambda_}")
    print(f"  Circle: radius={radius}m, period={period}s, altitude={-height}m")
    print(f"  Control rate: {1/dt:.0f} Hz")

    # Control loop
    for step in range(num_steps):
        # Create cost function for current reference point
        ref_pos = reference[step, 0:3]
        ref_vel = reference[step, 3:6]
        running_cost_fn = create_tracking_cost_at_time(
            Q_pos, Q_vel, R, ref_pos, ref_vel
        )

        # Compute optimal action
        action, mppi_state = mppi.command(
            config=config,
            mppi_state=mppi_state,
            current_obs=state,
            dynamics=dynamics,
            running_cost=running_cost_fn,
            terminal_cost=terminal_cost_fn,
            shift=True,
        )

        # Apply action to environment
        state = dynamics(state, action)

        # Compute cost
        cost = running_cost_fn(state, action)

        # Store
        states.append(state)
        actions_taken.append(action)
        costs_history.append(cost)

        # Print progress
        if step % 100 == 0:
            ref_pos = reference[step, 0:3]
            pos_error = jnp.linalg.norm(state[0:3] - ref_pos)
            vel_error = jnp.linalg.norm(state[3:6] - reference[step, 3:6])
            print(
                f"Step {step:4d}: pos_err={pos_error:.3f}m, "
                f"vel_err={vel_error:.3f}m/s, cost={cost:.2f}"
            )

    states = jnp.stack(states)
    actions_taken = jnp.stack(actions_taken)
    costs_history = jnp.array(costs_history)

    # Compute tracking performance
    pos_errors = jnp.linalg.norm(states[:-1, 0:3] - reference[:, 0:3], axis=1)
    vel_errors = jnp.linalg.norm(states[:-1, 3:6] - reference[:, 3:6], axis=1)

    print(f"\nTracking performance:")
    print(f"  Mean position error: {jnp.mean(pos_errors):.4f}m")
    print(f"  Max position error: {jnp.max(pos_errors):.4f}m")
    print(f"  RMS position error: {jnp.sqrt(jnp.mean(pos_errors**2)):.4f}m")
    print(f"  Mean velocity error: {jnp.mean(vel_errors):.4f}m/s")
    print(f"  Total cost: {jnp.sum(costs_history):.2f}")

    if visualize:
        try:
            import matplotlib.pyplot as plt
            from mpl_toolkits.mplot3d import Axes3D

            time = jnp.arange(len(states)) * dt

            fig = plt.figure(figsize=(16, 10))

            # 3D trajectory
            ax1 = fig.add_subplot(2, 3, 1, projection="3d")
            ax1.plot(
                reference[:, 0], reference[:, 1], reference[:, 2],
                "k--", linewidth=2, alpha=0.5, label="Reference"
            )
            ax1.plot(
                states[:, 0], states[:, 1], states[:, 2],
                "b-", linewidth=1, label="Actual"
            )
            ax1.scatter(
                states[0, 0], states[0, 1], states[0, 2],
                c="g", s=100, marker="o", label="Start"
            )
            ax1.set_xlabel("X (m)")
            ax1.set_ylabel("Y (m)")
            ax1.set_zlabel("Z (m)")
            ax1.legend()
            ax1.set_title("3D Trajectory")
            ax1.view_init(elev=20, azim=45)

            # XY trajectory (top view)
            ax2 = plt.subplot(2, 3, 2)
            ax2.plot(
                reference[:, 0], reference[:, 1],
                "k--", linewidth=2, alpha=0.5, label="Reference"
            )
            ax2.plot(states[:, 0], states[:, 1], "b-", linewidth=1, label="Actual")
            ax2.scatter(states[0, 0], states[0, 1], c="g", s=100, marker="o", label="Start")
            ax2.set_xlabel("X (m)")
            ax2.set_ylabel("Y (m)")
            ax2.axis("equal")
            ax2.legend()
            ax2.grid(True, alpha=0.3)
            ax2.set_title("XY Trajectory (Top View)")

            # Tracking errors
            time_err = time[:-1]
            ax3 = plt.subplot(2, 3, 3)
            ax3.plot(time_err, pos_errors, label="Position error", color="C0")
            ax3.set_ylabel("Position Error (m)")
            ax3.set_xlabel("Time (s)")
            ax3.legend()
            ax3.grid(True, alpha=0.3)
            ax3.set_title("Tracking Error")

            # Position components
            ax4 = plt.subplot(2, 3, 4)
            ax4.plot(time, states[:, 0], "b-", label="px (actual)")
            ax4.plot(time[:-1], reference[:, 0], "b--", alpha=0.5, label="px (ref)")
            ax4.plot(time, states[:, 1], "r-", label="py (actual)")
            ax4.plot(time[:-1], reference[:, 1], "r--", alpha=0.5, label="py (ref)")
            ax4.set_ylabel("Position (m)")
            ax4.set_xlabel("Time (s)")
            ax4.legend()
            ax4.grid(True, alpha=0.3)
            ax4.set_title("XY Position Tracking")

            # Altitude
            ax5 = plt.subplot(2, 3, 5)
            ax5.plot(time, states[:, 2], "b-", label="pz (actual)")
            ax5.plot(time[:-1], reference[:, 2], "k--", alpha=0.5, label="pz (ref)")
            ax5.set_ylabel("Z Position (m)")
            ax5.set_xlabel("Time (s)")
            ax5.legend()
            ax5.grid(True, alpha=0.3)
            ax5.set_title("Altitude Tracking")

            # Control inputs
            time_actions = jnp.arange(len(actions_taken)) * dt
            ax6 = plt.subplot(2, 3, 6)
            ax6.plot(time_actions, actions_taken[:, 0], label="Thrust", color="C3")
            ax6.axhline(mass * gravity, color="k", linestyle="--", alpha=0.3, label="Hover")
            ax6.set_ylabel("Thrust (N)")
            ax6.set_xlabel("Time (s)")
            ax6.legend()
            ax6.grid(True, alpha=0.3)
            ax6.set_title("Control Input")

            plt.tight_layout()

            # Save to docs/media directory
            output_dir = Path(__file__).parent.parent / "docs" / "media"
            output_dir.mkdir(parents=True, exist_ok=True)
            output_path = output_dir / "quadrotor_circle_mppi.png"

            plt.savefig(output_path, dpi=150, bbox_inches="tight")
            print(f"\nPlot saved to {output_path}")
            plt.show()

        except ImportError:
            print("\nMatplotlib not available for visualization")

    return states, actions_taken, costs_history, reference


run_quadrotor_circle(num_steps=6, num_samples=16, horizon=5)  # scaffolding: cut down from 1000 steps, 1000 samples, horizon 30
_report({"jit(scan)", "jit(update_step)"}, 6)  # scaffolding
