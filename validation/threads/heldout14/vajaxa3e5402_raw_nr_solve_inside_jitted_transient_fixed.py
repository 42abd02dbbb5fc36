# source: https://github.com/ChipFlow/vajax/commit/a3e54025f3630636e53eef47bdae1aac709dfc3e
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's version: the factory returns the raw nr_solve and only the outer transient loop is jitted; three runs, one compile.

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
from typing import Callable, Tuple

import jax
import jax.numpy as jnp
from jax import lax

MAX_NR_ITERATIONS = 50


class VACASKBenchmarkRunner:
    """scaffolding: the transient loop of the benchmark runner, reduced to the NR solve"""

    def _make_jitted_nr_solver(
        self,
        build_system_fn: Callable,
        max_iterations: int = MAX_NR_ITERATIONS,
        abstol: float = 1e-9,
        max_step: float = 1.0,
    ) -> Callable:
        """Create a JIT-compiled NR solver with build_system_fn captured in closure.

        This avoids retracing on every timestep by capturing build_system_fn
        in the closure rather than passing it as an argument.

        Returns:
            JIT-compiled function: (V_init, vsource_vals, isource_vals) -> (V, iters, converged, max_f)
        """

        def nr_solve(V_init: jax.Array, vsource_vals: jax.Array, isource_vals: jax.Array):
            # State: (V, iteration, converged, max_f, max_delta)
            init_state = (
                V_init,
                jnp.array(0, dtype=jnp.int32),
                jnp.array(False),
                jnp.array(jnp.inf),
                jnp.array(jnp.inf),
            )

            def cond_fn(state):
                V, iteration, converged, max_f, max_delta = state
                return jnp.logical_and(~converged, iteration < max_iterations)

            def body_fn(state):
                V, iteration, _, _, _ = state

                # Build system (J and f) - build_system_fn captured in closure
                J, f = build_system_fn(V, vsource_vals, isource_vals)

                # Check residual convergence
                max_f = jnp.max(jnp.abs(f))
                residual_converged = max_f < abstol

                # Solve: J @ delta = -f
                delta = jax.scipy.linalg.solve(J, -f)

                # Step limiting
                max_delta = jnp.max(jnp.abs(delta))
                scale = jnp.where(max_delta > max_step, max_step / max_delta, 1.0)
                delta = delta * scale

                # Update V (ground at index 0 stays fixed)
                V_new = V.at[1:].add(delta)

                # Check delta-based convergence
                delta_converged = max_delta < 1e-12

                converged = jnp.logical_or(residual_converged, delta_converged)

                return (V_new, iteration + 1, converged, max_f, max_delta)

            # Run NR loop on GPU
            V_final, iterations, converged, max_f, max_delta = lax.while_loop(
                cond_fn, body_fn, init_state
            )

            return V_final, iterations, converged, max_f

        return nr_solve

    def prepare(self, build_system_fn):  # scaffolding: solver and jitted transient loop built once (cached)
        nr_solve = self._make_jitted_nr_solver(
            build_system_fn, max_iterations=MAX_NR_ITERATIONS, abstol=1e-9, max_step=1.0
        )

        @jax.jit
        def transient(V, vsource_steps, isource_steps):
            def step(i, carry):
                V, total_iters = carry
                V_new, iterations, converged, max_f = nr_solve(V, vsource_steps[i], isource_steps[i])
                return V_new, total_iters + iterations
            return lax.fori_loop(0, vsource_steps.shape[0], step, (V, jnp.int32(0)))

        self._transient = transient

    def run_transient(self, V, vsource_steps, isource_steps):  # scaffolding
        return self._transient(V, vsource_steps, isource_steps)


# scaffolding: a source driving a resistor into a diode (nodes 0=ground, 1, 2)
def build_system_fn(V, vsource_vals, isource_vals):
    def residual(v):
        v1, v2 = v
        i_src = (vsource_vals[0] - v1) * 1e-3 * 1e3
        i_r = (v1 - v2) / 1e3 * 1e3
        i_d = 1e-12 * (jnp.exp(v2 / 0.025) - 1.0) * 1e3
        return jnp.array([i_src - i_r, i_r - i_d + isource_vals[0]])
    f = residual(V[1:])
    J = jax.jacfwd(residual)(V[1:])
    return J, f


runner = VACASKBenchmarkRunner()
runner.prepare(build_system_fn)
calls = 0
for amplitude in (0.4, 0.6, 0.8):  # three transient runs with different source ramps
    vsource_steps = jnp.linspace(0.0, amplitude, 8)[:, None]
    isource_steps = jnp.zeros((8, 1))
    V, total_iters = runner.run_transient(jnp.zeros(3), vsource_steps, isource_steps)
    calls += 1
_report({"jit(transient)", "jit(nr_solve)", "jit(while)"}, calls)
