# source: https://github.com/jax-ml/jax/issues/21730
# expect: trace-time-error at line 31
# runtime: ERROR ValueError
# why: jax.jit(jnp.linalg.norm) without static_argnames traces the ord keyword too, and norm needs a concrete ord to pick its algorithm; calling with ord=1 fails while tracing (TracerBoolConversionError in the 2024 report, a ValueError asking for a static ord on jax 0.10.2).

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
import jax
import jax.numpy as jnp
a_fun = jax.jit(jnp.linalg.norm)
try:  # scaffolding
    a_fun(jnp.array([1.0,1.0]),ord=1)
    _report({"jit(norm)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
