# source: https://github.com/patrick-kidger/equinox/issues/1127
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the version the reporter says works: eqx.filter_jit treats the activation function as static, so f compiles once for two calls.

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


@eqx.filter_jit
def f(model, x):
    return model(x)


f(m1, jnp.arange(4))
f(m1, jnp.arange(4) + 1)  # scaffolding
_report({"jit(f)"}, 2)  # scaffolding
