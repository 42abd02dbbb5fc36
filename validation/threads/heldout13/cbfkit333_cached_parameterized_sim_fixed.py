# source: https://github.com/bardhh/cbfkit/pull/333
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR's batch runner builds the jitted simulation once per (n_obstacles, num_steps) through lru_cache and passes alpha and control_limit as traced inputs, so the sweep compiles once.

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
from functools import lru_cache

import jax
import jax.numpy as jnp
from jax import lax, random

DEFAULT_GOAL = jnp.array([9.0, 9.0])  # scaffolding: cbfkit.benchmarks.scenario_builders constant


def _solve_qp(H, f_vec, G, h_vec):  # scaffolding: stands in for cbfkit's jaxopt QP solve_with_details
    class _Sol:
        pass
    sol = _Sol()
    u = -jnp.linalg.solve(H, f_vec)
    viol = jnp.maximum(G @ u - h_vec, 0.0)
    sol.primal = u - G.T @ viol / (jnp.sum(G**2, axis=1) @ jnp.ones_like(viol) + 1.0)
    return sol


@lru_cache(maxsize=16)
def _get_sim_fn(n_obstacles: int, num_steps: int):
    """Build and cache a JIT-compiled simulation function."""

    def _simulate(key, x0, alpha, control_limit, centers, radii, goal, dt):
        """Simulate one trajectory with dynamic sweep parameters."""

        def _step(carry, _step_idx):
            key, x = carry
            key, _subkey = random.split(key)

            # Nominal controller: proportional drive toward goal
            u_nom = 2.0 * (goal - x)

            diffs = x[None, :] - centers  # (n_obs, 2)
            h_vals = jnp.sum(diffs**2, axis=1) - radii**2  # (n_obs,)
            grad_h = 2.0 * diffs  # (n_obs, 2)

            G_cbf = -grad_h
            h_cbf = alpha * h_vals

            I2 = jnp.eye(2)
            G_lim = jnp.concatenate([I2, -I2], axis=0)  # (4, 2)
            h_lim = control_limit * jnp.ones(4)

            G = jnp.concatenate([G_cbf, G_lim], axis=0)
            h_vec = jnp.concatenate([h_cbf, h_lim])

            H = 2.0 * I2
            f_vec = -2.0 * u_nom
            sol = _solve_qp(H, f_vec, G, h_vec)
            u = sol.primal

            x_next = x + dt * u

            diffs_next = x_next[None, :] - centers
            h_next = jnp.sum(diffs_next**2, axis=1) - radii**2

            return (key, x_next), (x_next, u, h_next)

        _, (xs, us, hs) = lax.scan(_step, (key, x0), jnp.arange(num_steps))
        return xs, us, hs

    # vmap over (key, x0); sweep params broadcast
    return jax.jit(jax.vmap(_simulate, in_axes=(0, 0, None, None, None, None, None, None)))


def _si_batch_runner(seeds: list, params: dict) -> list:
    alpha = float(params.get("alpha", 1.0))
    control_limit = float(params.get("control_limit", 5.0))
    n_obstacles = int(params.get("n_obstacles", 2))
    obs = None  # scaffolding: resolve_circular_obstacles(params)
    dt = 0.1
    num_steps = 100
    goal = DEFAULT_GOAL

    if obs is not None:
        centers = jnp.stack([jnp.array(c) for c, r in obs])
        radii = jnp.array([float(r) for c, r in obs])
    else:
        key = random.PRNGKey(0)
        key_c, key_r = random.split(key)
        centers = random.uniform(key_c, (n_obstacles, 2), minval=2.0, maxval=8.0)
        radii = random.uniform(key_r, (n_obstacles,), minval=0.5, maxval=1.0)

    sim_fn = _get_sim_fn(n_obstacles, num_steps)

    keys = jnp.stack([random.PRNGKey(s) for s in seeds])
    sampler_keys = jnp.stack(
        [random.split(random.fold_in(random.PRNGKey(s), 1), 1)[0] for s in seeds]
    )
    x0s = jax.vmap(lambda k: random.uniform(k, (2,), minval=-1.0, maxval=1.0))(sampler_keys)

    start = time.perf_counter()
    xs, us, hs = sim_fn(keys, x0s, alpha, control_limit, centers, radii, goal, dt)
    jax.block_until_ready(xs)
    wall_time = time.perf_counter() - start

    results = []
    for i in range(len(seeds)):
        final_pos = xs[i, -1, :]
        results.append({"final_goal_distance": float(jnp.linalg.norm(final_pos - goal)),
                        "min_barrier_value": float(jnp.min(hs[i]))})  # scaffolding: metrics trimmed
    return results


# scaffolding: the same three combos as the positive
calls = 0
for alpha, control_limit in [(0.5, 5.0), (1.0, 5.0), (1.0, 2.0)]:
    _si_batch_runner([0], {"alpha": alpha, "control_limit": control_limit, "n_obstacles": 2})
    calls += 1
_report({"jit(_simulate)"}, calls)
