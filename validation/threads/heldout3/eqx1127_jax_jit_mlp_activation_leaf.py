# source: https://github.com/patrick-kidger/equinox/issues/1127
# expect: trace-time-error at line 42
# runtime: ERROR TypeError
# why: the eqx.nn.MLP passed to the jax.jit-ed f carries its activation function (jax.nn.gelu) as a pytree leaf, and jax.jit cannot interpret a function as an abstract array, so the call raises TypeError.

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


import equinox as eqx
import jax
import jax.numpy as jnp

key = jax.random.key(0)
m1 = eqx.nn.MLP(4, 4, 64, 2, jax.nn.gelu, key=key)


@jax.jit
def f(model, x):
    return model(x)


try:  # scaffolding
    f(m1, jnp.arange(4))
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
