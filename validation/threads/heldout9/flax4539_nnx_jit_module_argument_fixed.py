# source: https://github.com/google/flax/issues/4539
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the reporter's working version passes the module to an nnx.jit function, so its RNG state is threaded through the call and updated; forward compiles once and each call draws a new mask.

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
from flax import nnx
from jax import numpy as jnp

@nnx.jit
def forward(model, x):
    return model(x)

module = nnx.Dropout(0.5, rngs=nnx.Rngs(0))
forward(module, jnp.ones((3, 5)))
forward(module, jnp.ones((3, 5)))  # scaffolding
_report({"jit(forward)"}, 2)  # scaffolding
