# source: https://github.com/jax-ml/jax/pull/12653
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: static_argnames=['b'] on jit of jax.jacrev(f) used to raise because jacrev hid f's signature; since the PR jacrev propagates it, b is static and the Python `if b` works, each jitted wrapper compiles once.

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

def f(a, b):
  return a if b else 0.0

jax.jit(jax.grad(f), static_argnames=['b'])(1.0, False)
# 0.0

jax.jit(jax.jacrev(f), static_argnames=['b'])(1.0, False)
_report({"jit(f)"}, 2)  # scaffolding
