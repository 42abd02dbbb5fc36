# source: https://github.com/jax-ml/jax/issues/38603
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with a static size=16 the output shape no longer depends on the data, so the jitted f compiles once for 2 calls.

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
import jax
import jax.numpy as jnp

t = jnp.ones((4, 4), dtype=jnp.float32)

def f(x):
    return jnp.compress(x.ravel() > 0, x.ravel(), size=16)

print(f(t).shape)    # eager: (16,)
jf = jax.jit(f)  # scaffolding
print(jf(t).shape)
print(jf(t * 2).shape)  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
