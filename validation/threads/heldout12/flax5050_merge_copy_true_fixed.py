# source: https://github.com/google/flax/issues/5050
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with nnx.merge(..., copy=True) the merged module gets fresh variables inside the trace, so dropout's RNG update does not touch the outer state; the jitted gradient compiles once for three calls.

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
    model = nnx.merge(graphdef, params, state, copy=True)
    model.train()
    logits = model(jnp.ones((4,16,8), dtype=jnp.int32), decode=False)
    return logits.sum()

grad_loss = jax.jit(jax.grad(loss))  # scaffolding: jitted so the compile is counted
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    g = grad_loss(params,state)
    calls += 1  # scaffolding
_report({"jit(loss)"}, calls)  # scaffolding
