# source: https://github.com/ChipFlow/vajax/commit/a4353ccbb7f9a4ca164d521d54a6a461e75608b9
# expect: trace-time-error at line 81
# runtime: ERROR TracerIntegerConversionError
# why: eval_sources iterates over vsource_dc, a 130-element jnp array, inside the traced lax.while_loop body; iterating an array longer than 100 goes through JAX's chunked iterator, which fails with a TracerIntegerConversionError under the trace.
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


import jax
import jax.numpy as jnp
from typing import Callable
jax.config.update("jax_enable_x64", True)  # scaffolding: vajax runs in float64


class TransientSetup:  # scaffolding: only the source data the evaluator reads
    def __init__(self, n_vsources, n_isources):
        self.source_device_data = {
            "vsource": {"names": [f"v{i}" for i in range(n_vsources)], "dc_values": [1.0] * n_vsources},
            "isource": {"names": [f"i{i}" for i in range(n_isources)], "dc_values": [0.0] * n_isources},
        }


class FullMNAStrategy:  # scaffolding: the class around _make_jit_source_eval
    name = "full_mna"

    def _make_jit_source_eval(self, setup: TransientSetup, source_fn: Callable) -> Callable:
        """Create JIT-compatible source evaluator.

        Uses jnp.stack instead of jnp.array to handle traced values properly.
        """
        source_data = setup.source_device_data
        vsource_data = source_data.get("vsource", {"names": [], "dc_values": []})
        isource_data = source_data.get("isource", {"names": [], "dc_values": []})

        vsource_names = vsource_data.get("names", [])
        isource_names = isource_data.get("names", [])
        n_vsources = len(vsource_names)
        n_isources = len(isource_names)

        dtype = jnp.float64

        if n_vsources == 0 and n_isources == 0:

            def eval_sources(t):
                return jnp.zeros(0, dtype=dtype), jnp.zeros(0, dtype=dtype)

            return eval_sources

        # Get DC values as JAX arrays for fallback
        vsource_dc = jnp.array(vsource_data.get("dc_values", [0.0] * n_vsources), dtype=dtype)
        isource_dc = jnp.array(isource_data.get("dc_values", [0.0] * n_isources), dtype=dtype)

        def eval_sources(t):
            source_values = source_fn(t)

            # Build vsource array using jnp.stack (JIT-compatible)
            if n_vsources == 0:
                vsource_vals = jnp.zeros(0, dtype=dtype)
            elif n_vsources == 1:
                val = source_values.get(vsource_names[0], vsource_dc[0])
                vsource_vals = jnp.array([val], dtype=dtype)
            else:
                vals = [source_values.get(name, dc) for name, dc in zip(vsource_names, vsource_dc)]
                vsource_vals = jnp.stack(vals)

            # Build isource array using jnp.stack (JIT-compatible)
            if n_isources == 0:
                isource_vals = jnp.zeros(0, dtype=dtype)
            elif n_isources == 1:
                val = source_values.get(isource_names[0], isource_dc[0])
                isource_vals = jnp.array([val], dtype=dtype)
            else:
                vals = [source_values.get(name, dc) for name, dc in zip(isource_names, isource_dc)]
                isource_vals = jnp.stack(vals)

            return vsource_vals, isource_vals

        return eval_sources


def source_fn(t):  # scaffolding: one time-dependent source, the rest fall back to DC
    return {"v0": jnp.sin(2 * jnp.pi * 1e3 * t)}


eval_sources = FullMNAStrategy()._make_jit_source_eval(TransientSetup(130, 2), source_fn)  # scaffolding: mul64 has 130 vsources


@jax.jit  # scaffolding: the transient loop is a jitted lax.while_loop
def run_transient(t_stop, dt):  # scaffolding
    def body(carry):  # scaffolding
        t, acc = carry
        v, i = eval_sources(t)
        return t + dt, acc + v.sum() + i.sum()
    return jax.lax.while_loop(lambda c: c[0] < t_stop, body, (0.0, 0.0))[1]  # scaffolding


try:  # scaffolding
    for t_stop in [1e-3, 2e-3]:  # scaffolding
        run_transient(t_stop, 1e-5).block_until_ready()  # scaffolding
    _report({"jit(run_transient)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
