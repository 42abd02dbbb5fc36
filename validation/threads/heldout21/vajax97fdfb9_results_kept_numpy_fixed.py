# source: https://github.com/ChipFlow/vajax/commit/97fdfb9ddf5c4b8685cb3cc4762c812eeb4c4c7e
# expect: none
# runtime: COMPILES 0 CALLS 3
# why: the commit returns the sliced results as numpy arrays, so reading the first sample after each run compiles nothing, whatever the step count.
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


from dataclasses import dataclass
import numpy as np
import jax
import jax.numpy as jnp


@dataclass
class TransientResult:  # scaffolding: the fields run_transient fills
    times: object
    voltages: dict
    currents: dict
    stats: dict


class AdaptiveStrategy:  # scaffolding: padded outputs whose valid length depends on t_stop and dt
    def run(self, t_stop, dt, checkpoint_interval=None):
        max_steps = 4096
        n_steps = int(round(t_stop / dt))
        times = jnp.arange(max_steps) * dt
        V_out = jnp.sin(times)[:, None] * jnp.ones((1, 3))
        return times, V_out, {"n_steps": n_steps}


def extract_results(times_full, V_out, stats):  # scaffolding: slice to the valid steps, as numpy
    n = stats["n_steps"]
    times_np = np.asarray(times_full)[:n]
    V_np = np.asarray(V_out)[:n]
    voltages = {name: V_np[:, i] for i, name in enumerate(["in", "out", "vdd"])}
    currents = {"vdd": -V_np[:, 2] * 1e-3}
    return times_np, voltages, currents


class CircuitEngine:  # scaffolding: only the prepared state run_transient reads
    def __init__(self, t_stop, dt):
        self._prepared_strategy = AdaptiveStrategy()
        self._prepared_t_stop = t_stop
        self._prepared_dt = dt
        self._prepared_checkpoint_interval = None

    def run_transient(self) -> TransientResult:
        strategy = self._prepared_strategy
        t_stop = self._prepared_t_stop
        dt = self._prepared_dt
        checkpoint_interval = self._prepared_checkpoint_interval

        times_full, V_out, stats = strategy.run(t_stop, dt, checkpoint_interval)

        # Extract sliced numpy results for TransientResult
        times_np, voltages, currents = extract_results(times_full, V_out, stats)

        # Keep as numpy arrays — avoids creating dynamically-sized JAX arrays
        # that trigger jit(dynamic_slice) recompilation on CUDA when n_steps
        # varies between runs (the shape gets baked into the XLA kernel).
        return TransientResult(
            times=times_np,
            voltages=voltages,
            currents=currents,
            stats=stats,
        )


# scripts/compare_vacask.py: a warm-up run and timed runs whose step counts differ
for t_stop in [1e-3, 2.5e-3, 4e-3]:  # scaffolding
    engine = CircuitEngine(t_stop, 1e-6)  # scaffolding
    result = engine.run_transient()
    # Results are numpy arrays (materialized by block_until_ready in full_mna)
    first_node = next(iter(result.voltages))
    _ = float(result.voltages[first_node][0])
_report({"jit(dynamic_slice)"}, 3)  # scaffolding
