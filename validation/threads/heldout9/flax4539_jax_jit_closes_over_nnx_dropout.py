# source: https://github.com/google/flax/issues/4539
# expect: stale-closure at line 39
# runtime: ERROR TraceContextError
# why: forward is a jax.jit function that closes over the stateful nnx.Dropout module instead of taking it as an argument, so the module's RNG counter cannot be advanced from inside the trace; flax 0.10 returned the same dropout mask on every call, flax 0.12.8 raises TraceContextError.

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
import jax


module = nnx.Dropout(0.5, rngs=nnx.Rngs(0))


@jax.jit
def forward(x):  # scaffolding: reconstruction of the colab's jax.jit forward
    return module(x)


try:  # scaffolding
    a = forward(jnp.ones((3, 5)))
    b = forward(jnp.ones((3, 5)))
    print("COMPILES 1 CALLS 2")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
