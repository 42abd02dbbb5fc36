# source: https://github.com/patrick-kidger/equinox/issues/119
# expect: unhashable-static at line 42
# runtime: ERROR TypeError
# why: lax.switch hashes its branch callables to cache their traces; the branches are eqx.nn.Linear modules whose hash includes their weight arrays, so the first call raises TypeError (unhashable type: ArrayImpl; JVPTracer when differentiated, as reported).

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
import equinox as eqx
import jax.lax as lax
import jax.numpy as jnp
import jax.random as jr

class M(eqx.Module):
    modules: list[eqx.Module]

    def __init__(self, *, key):
        self.modules = [eqx.nn.Linear(1, 1, key=k) for k in jr.split(key, 5)]

    def __call__(self, x, *, key):
        i = jr.randint(key, (), minval=0, maxval=5)
        return lax.switch(i, self.modules, x)

try:  # scaffolding
    m = M(key=jr.PRNGKey(0))
    m(jnp.array([1.]), key=jr.PRNGKey(1))
    m(jnp.array([1.]), key=jr.PRNGKey(2))  # scaffolding
    _report({"jit(switch)", "jit(cond)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
