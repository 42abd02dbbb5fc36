# source: https://github.com/jax-ml/jax/issues/837
# expect: shape-churn at line 45
# runtime: COMPILES 5 CALLS 5
# why: the jitted model is called on a context that grows by one token per step, so every call has a new shape and compiles again: 5 compiles for 5 calls.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

vocab, width = 16, 8  # scaffolding: a toy sequence model
params = jax.random.normal(jax.random.PRNGKey(0), (vocab, width))  # scaffolding


@jax.jit  # scaffolding
def next_token_logits(params, context):  # scaffolding
    h = jnp.tanh(params[context].sum(0))  # scaffolding
    return params @ h  # scaffolding


# "when sampling from a transformer sequence model, the context size initially grows"
context = jnp.array([0])  # scaffolding
for step in range(5):  # scaffolding
    logits = next_token_logits(params, context)  # scaffolding
    token = jnp.argmax(logits)  # scaffolding
    context = jnp.concatenate([context, token[None]])  # scaffolding
_report({"jit(next_token_logits)"}, 5)  # scaffolding
