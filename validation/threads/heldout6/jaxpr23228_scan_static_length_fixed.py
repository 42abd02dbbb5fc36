# source: https://github.com/jax-ml/jax/pull/23228
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with static_argnums=0 the length n is a Python int at trace time; the lambda compiles once for 2 calls with the same n.

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

f = jax.jit(lambda n, x: jax.lax.scan(lambda c, z: (c, z), x, (), length=n), static_argnums=0)
print(f(3, 1.))
print(f(3, 2.))
_report({"jit(<lambda>)"}, 2)  # scaffolding
