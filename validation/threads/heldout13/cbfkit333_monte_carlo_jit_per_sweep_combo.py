# source: https://github.com/bardhh/cbfkit/pull/333
# expect: jit-in-loop-or-body at line 125
# runtime: COMPILES 3 CALLS 6
# why: conduct_monte_carlo_gpu wraps a fresh single_trajectory closure in jax.jit on every call, so each parameter combo of the sweep retraces and recompiles the whole simulation even though only alpha and control_limit changed.

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
import time
from dataclasses import dataclass  # scaffolding
from typing import Any, Callable  # scaffolding

import jax
import jax.numpy as jnp
from jax import lax, random


# scaffolding: stand-ins for cbfkit's MonteCarloSetup, _make_scan_step and scenario builder
@dataclass
class MonteCarloSetup:
    initial_state_sampler: Callable
    dynamics: Callable
    controller: Callable
    controller_data: Any
    planner_data: Any
    dt: float
    num_steps: int


def _make_scan_step(dynamics, controller, dt):
    def scan_step(carry, _):
        key, t, x, u, z, c, c_data, p_data = carry
        u = controller(t, x)
        f, g = dynamics(x)
        x = x + dt * (f + g @ u)
        return (key, t + dt, x, u, x, c, c_data, p_data), (x, u, x, c, c_data, p_data)
    return scan_step


def build_single_integrator_setup(seed, n_obstacles, alpha, control_limit, obstacles, dt, num_steps):
    goal = jnp.array([9.0, 9.0])
    centers = jnp.linspace(2.0, 8.0, n_obstacles)[:, None] * jnp.ones(2)
    def controller(t, x):
        u_nom = 2.0 * (goal - x)
        h = jnp.sum((x - centers) ** 2, axis=1) - 0.5**2
        scale = jnp.clip(alpha * jnp.min(h), 0.0, 1.0)
        return jnp.clip(scale * u_nom, -control_limit, control_limit)
    return MonteCarloSetup(
        initial_state_sampler=lambda k: random.uniform(k, (2,), minval=-1.0, maxval=1.0),
        dynamics=lambda x: (jnp.zeros(2), jnp.eye(2)),
        controller=controller,
        controller_data={},
        planner_data={},
        dt=dt,
        num_steps=num_steps,
    )


# cbfkit/simulation/monte_carlo_gpu.py before the PR (scan step construction trimmed)
def conduct_monte_carlo_gpu(
    setup: MonteCarloSetup,
    n_trials: int,
    seed: int = 0,
):
    master_key = random.PRNGKey(seed)
    keys = random.split(master_key, n_trials)

    # Sample initial states for all trials
    sampler_keys = random.split(random.fold_in(master_key, 1), n_trials)
    initial_states = jax.vmap(setup.initial_state_sampler)(sampler_keys)

    # Build the vmap-safe scan step (no debug callbacks)
    scan_step = _make_scan_step(setup.dynamics, setup.controller, setup.dt)  # scaffolding: arguments trimmed

    # Probe dimensions from dynamics
    probe_state = initial_states[0]
    _, g_probe = setup.dynamics(probe_state)
    control_dim = g_probe.shape[1]
    state_dim = probe_state.shape[0]

    # Build initial covariance
    c0 = jnp.zeros((state_dim, state_dim))

    def single_trajectory(key, x0):
        u0 = jnp.zeros((control_dim,))
        z0 = x0

        carry_init = (
            key,
            0.0,  # t=0
            x0,
            u0,
            z0,
            c0,
            setup.controller_data,
            setup.planner_data,
        )

        _final_carry, trajectory = lax.scan(
            scan_step, carry_init, jnp.arange(setup.num_steps)
        )
        return trajectory

    # JIT-compile the vmapped function
    batched_fn = jax.jit(jax.vmap(single_trajectory, in_axes=(0, 0)))

    # Warmup: compile without timing
    _ = batched_fn(keys, initial_states)
    # Block until compilation + execution finishes
    jax.block_until_ready(_)

    # Timed run
    start = time.perf_counter()
    trajectory = batched_fn(keys, initial_states)
    # Force synchronization for accurate timing
    jax.block_until_ready(trajectory)
    wall_time = time.perf_counter() - start

    xs, us, zs, cs, c_datas, p_datas = trajectory
    return xs, us, wall_time


N_TRIALS = 1


def tutorial_sweep(seed: int, params: dict) -> dict:
    alpha = params.get("alpha", 1.0)
    control_limit = params.get("control_limit", 5.0)
    n_obstacles = int(params.get("n_obstacles", 2))
    obs = None  # scaffolding: resolve_circular_obstacles(params)

    setup = build_single_integrator_setup(
        seed,
        n_obstacles=n_obstacles,
        alpha=alpha,
        control_limit=control_limit,
        obstacles=obs,
        dt=0.1,
        num_steps=100,
    )

    results = conduct_monte_carlo_gpu(setup, n_trials=N_TRIALS, seed=seed)
    return results


# scaffolding: a small sweep, three (alpha, control_limit) combos, one seed each
calls = 0
for alpha, control_limit in [(0.5, 5.0), (1.0, 5.0), (1.0, 2.0)]:
    tutorial_sweep(0, {"alpha": alpha, "control_limit": control_limit, "n_obstacles": 2})
    calls += 2  # warmup call and timed call
_report({"jit(single_trajectory)"}, calls)
