# source: https://github.com/google-deepmind/optax/issues/412
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the thread's workaround: static_args=('min_dim_size_to_factor',) keeps that argument a Python int, so the jitted init traces and compiles once for two calls.

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

opt = optax.inject_hyperparams(optax.adafactor, static_args=("min_dim_size_to_factor",))(learning_rate=0.1)

params = {"w": jnp.ones((4, 3))}  # scaffolding
init = jax.jit(opt.init)  # scaffolding
opt_state = init(params)  # scaffolding
opt_state = init({"w": jnp.zeros((4, 3))})  # scaffolding
_report({"jit(init_fn)"}, 2)  # scaffolding
