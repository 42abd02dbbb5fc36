# source: https://github.com/google/flax/issues/5050
# expect: trace-time-error at line 38
# runtime: ERROR TraceContextError
# why: nnx.merge(..., copy=False) rebuilds the module around the very RngCount variables created outside jax.grad, so dropout's RNG update inside the grad trace mutates outer state and NNX raises TraceContextError.

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
import flax.nnx as nnx
import jax
import jax.numpy as jnp

model = nnx.MultiHeadAttention(8,8,8,8, rngs = nnx.Rngs(0), dropout_rate=0.1)

graphdef, params, state = nnx.split(model, nnx.Param, ...)

def loss(params,state):
    model = nnx.merge(graphdef, params, state, copy=False) # Works for copy=True
    model.train()
    logits = model(jnp.ones((4,16,8), dtype=jnp.int32), decode=False)
    return logits.sum()

try:  # scaffolding
    jax.grad(loss)(params,state)
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
#Error  
#TraceContextError: Cannot mutate RngStream from a different trace level (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.TraceContextError)
