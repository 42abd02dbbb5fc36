# source: https://github.com/noegroup/ScoreMD/pull/7
# expect: jit-in-loop-or-body at line 68
# runtime: COMPILES 3 CALLS 3
# why: simulate defines a fresh @jax.jit step_fn closure on every call and hands it to an eager lax.scan, so each trajectory (same shapes, new seed) traces and compiles the scan again: 3 compiles for 3 calls. The unrolled step_n the PR wants to replace is inlined into that one scan body and is not what recompiles.
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


from typing import Tuple, Callable
import jax
import jax.numpy as jnp


def create_langevin_step_function(
    force: Callable[[jnp.ndarray], jnp.ndarray], mass: jnp.ndarray, gamma: float, num_steps: int, dt: float, kbT: float
) -> Callable[[jnp.ndarray, jnp.ndarray, jnp.ndarray], Tuple[jnp.ndarray, jnp.ndarray]]:
    assert num_steps >= 1, f"Number of steps should be at least 1. Got {num_steps}."

    def step_single(
        x: jnp.ndarray, v: jnp.ndarray, key: jax.random.PRNGKey, **kwargs
    ) -> Tuple[jnp.ndarray, jnp.ndarray]:
        """Perform one step of forward langevin as implemented in openmm."""
        assert x.shape == v.shape, f"Position and velocity should have the same shape. Shape {x.shape} != {v.shape}."
        alpha = jnp.exp(-gamma * dt)
        f_scale = (1 - alpha) / gamma
        new_v_det = alpha * v + f_scale * force(x, **kwargs) / mass
        new_v = new_v_det + jnp.sqrt(kbT * (1 - alpha**2) / mass) * jax.random.normal(key, x.shape)

        return x + dt * new_v, new_v

    if num_steps == 1:
        return step_single

    def step_n(x: jnp.ndarray, v: jnp.ndarray, key: jax.random.PRNGKey, **kwargs) -> Tuple[jnp.ndarray, jnp.ndarray]:
        for _ in range(num_steps):
            key, step_key = jax.random.split(key)
            x, v = step_single(x, v, step_key, **kwargs)
        return x, v

    return step_n


def simulate(
    x0: jnp.ndarray,
    v0: jnp.ndarray,
    step: Callable[[jnp.ndarray, jnp.ndarray, jnp.ndarray], Tuple[jnp.ndarray, jnp.ndarray]],
    n_steps: int,
    key: jnp.ndarray,
) -> Tuple[jnp.ndarray, jnp.ndarray]:
    @jax.jit
    def step_fn(carry, _):
        x, v, key = carry
        key, step_key = jax.random.split(key)
        new_x, new_v = step(x, v, step_key)
        return (new_x, new_v, key), (new_x, new_v)

    init_carry = (x0, v0, key)
    _, (trajectory, velocities) = jax.lax.scan(step_fn, init_carry, None, length=n_steps)

    return trajectory, velocities


force = lambda x: -4.0 * x * (x**2 - 1.0)  # scaffolding: a double-well force instead of the learned score model
step = create_langevin_step_function(force, mass=jnp.ones(2), gamma=1.0, num_steps=10, dt=1e-3, kbT=1.0)
for k in range(3):  # scaffolding: three trajectories from different seeds, as the sampling scripts do
    traj, vel = simulate(jnp.zeros(2), jnp.zeros(2), step, n_steps=100, key=jax.random.PRNGKey(k))
print(sorted(set(_COMPILED)), len(_COMPILED), file=__import__("sys").stderr)  # scaffolding
_report({"jit(scan)"}, 3)  # scaffolding
