# source: https://github.com/ChipFlow/vajax/commit/6f83a797917bfb71e39509a159c35137dc528a8f
# expect: changing-static at line 98
# runtime: COMPILES 3 CALLS 3
# why: t_stop is baked into the while-loop closures and into the runner cache key, so every simulation with a new stop time builds and compiles a new jitted while_loop.
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


from typing import NamedTuple
import jax
import jax.numpy as jnp
from jax import lax
jax.config.update("jax_enable_x64", True)  # scaffolding: vajax runs in float64


class WhileLoopState(NamedTuple):  # scaffolding: fields cut down to an RC circuit
    t: jax.Array
    dt: jax.Array
    V: jax.Array
    times_out: jax.Array
    V_out: jax.Array
    # Loop control
    step_idx: jax.Array             # Scalar: current output index


class Config(NamedTuple):  # scaffolding
    min_dt: float = 1e-7
    max_dt: float = 1e-4
    rc: float = 1e-3


def _make_while_loop_fns(
    config,
    max_steps: int,
    t_stop: float,
    dtype,
):
    """Create cond and body functions for while_loop adaptive timestep."""

    def cond_fn(state: WhileLoopState) -> jax.Array:
        """Continue while t < t_stop and step_idx < max_steps."""
        return (state.t < t_stop) & (state.step_idx < max_steps)

    def body_fn(state: WhileLoopState) -> WhileLoopState:
        """One iteration of adaptive timestep loop."""
        t, dt = state.t, state.dt
        t_next = t + dt
        V_next = state.V * jnp.exp(-dt / config.rc)  # scaffolding: exact RC step instead of the NR solve
        dt_lte = dt * 1.5  # scaffolding: stand-in for the LTE estimate
        new_dt = jnp.clip(dt_lte, config.min_dt, config.max_dt)
        new_dt = jnp.minimum(new_dt, t_stop - t_next)  # Don't overshoot
        return state._replace(
            t=t_next, dt=new_dt, V=V_next,
            times_out=state.times_out.at[state.step_idx].set(t_next),
            V_out=state.V_out.at[state.step_idx].set(V_next),
            step_idx=state.step_idx + 1,
        )

    return cond_fn, body_fn


class AdaptiveWhileLoopStrategy:  # scaffolding: run() cut down to the loop set-up, cache and call
    name = "adaptive_while_loop"

    def __init__(self):
        self._jit_run_while_cache = {}

    def run(self, t_stop, dt=1e-6, max_steps=2000, dtype=jnp.float64):
        config = Config()
        init_state = WhileLoopState(
            t=jnp.array(0.0, dtype=dtype),
            dt=jnp.array(dt, dtype=dtype),
            V=jnp.array(1.0, dtype=dtype),
            times_out=jnp.zeros(max_steps, dtype=dtype),
            V_out=jnp.zeros(max_steps, dtype=dtype),
            step_idx=jnp.array(0, dtype=jnp.int32),
        )

        # Cache key includes t_stop since it's baked into cond_fn
        cache_key = (t_stop, max_steps, dtype)

        if cache_key not in self._jit_run_while_cache:
            cond_fn, body_fn = _make_while_loop_fns(
                config, max_steps,
                t_stop, dtype,
            )

            # JIT-compile the while_loop for performance
            @jax.jit
            def run_while(state):
                return lax.while_loop(cond_fn, body_fn, state)

            self._jit_run_while_cache[cache_key] = run_while

        run_while = self._jit_run_while_cache[cache_key]

        # Run while loop
        final_state = run_while(init_state)
        jax.block_until_ready(final_state)

        # Extract valid outputs
        n_steps = int(final_state.step_idx)
        times = final_state.times_out[:n_steps]
        V_out = final_state.V_out[:n_steps]
        return times, V_out


strategy = AdaptiveWhileLoopStrategy()  # scaffolding
for t_stop in [1e-3, 2e-3, 3e-3]:  # scaffolding: three simulations of different length
    times, V_out = strategy.run(t_stop)  # scaffolding
_report({"jit(run_while)"}, 3)  # scaffolding
