# source: https://github.com/rm-2278/JAX_practice/blob/1418691852a09ef546394a4fa58551e8d1c70007/functions/tracing.py
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: lax.cond on mode==0 (a Python int passed through grad) and on x.sum() > 0 (traced) both work under jit(outer_func): one compile for two calls, no error.
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

def hybrid_layer(x, mode):
    # Condition A: Hyperparameter-based (Requires a regular value or concrete tracer)
    val = jax.lax.cond(mode==0, lambda x: jnp.mean(x), lambda x: jnp.max(x), x)
    
    # Condition B: Data-dependent (Requires jax.lax.cond if abstract)
    return jax.lax.cond(x.sum() > 0, lambda val: val * 2.0, lambda val: val * -1.0, val)
    
def outer_func(x):
    # We want the gradient of the hybrid layer at a specific point
    return jax.grad(hybrid_layer, argnums=0)(x, 0)

jitted_grad = jax.jit(outer_func) # Outer jit converts to abstract tracers
result = jitted_grad(jnp.array([1.0, 2.0]))
print(result)
result = jitted_grad(jnp.array([3.0, -1.0]))  # scaffolding: a second call with the same shape
print(result)  # scaffolding
_report({"jit(outer_func)"}, 2)  # scaffolding
