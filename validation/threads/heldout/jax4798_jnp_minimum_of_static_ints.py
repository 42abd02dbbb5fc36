# source: https://github.com/jax-ml/jax/issues/4798
# expect: trace-time-error at line 38
# runtime: ERROR ConcretizationTypeError
# why: n and x.shape[0] are concrete, but jnp.minimum under jit is staged out and returns a tracer, so jnp.arange(n_actual) raises (hawkinsp: expected since omnistaging).

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
import jax.numpy as jnp
import jax
from functools import partial

@partial(jax.jit, static_argnums=(0,))
def foo(n, x):
    n_aval = jnp.shape(x)[0]
    n_actual = jnp.minimum(n_aval, n)
    print(type(n), type(n_aval), type(n_actual))
    return jnp.arange(n_actual)

n = 5
x = jnp.arange(10)
try:  # scaffolding
    foo(n,x)
    _report({"jit(foo)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
