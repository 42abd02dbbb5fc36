# source: https://github.com/google-deepmind/optax/issues/412
# expect: trace-time-error at line 32
# runtime: ERROR TracerBoolConversionError
# why: inject_hyperparams treats every hyperparameter of adafactor as dynamic, so under jax.jit min_dim_size_to_factor becomes a tracer and adafactor's Python comparison on it raises TracerBoolConversionError.

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
import jax.numpy as jnp  # scaffolding
import optax

opt = optax.inject_hyperparams(optax.adafactor)(learning_rate=0.1)

params = {"w": jnp.ones((4, 3))}  # scaffolding
try:  # scaffolding
    opt_state = jax.jit(opt.init)(params)  # scaffolding: the thread says "the init function ... cannot be jit compiled"
    _report({"jit(init_fn)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
