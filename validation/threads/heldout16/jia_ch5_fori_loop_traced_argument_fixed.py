# source: https://github.com/che-shr-cat/JAX-in-Action
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: rewritten with jax.lax.fori_loop (the book's 'structured control flow primitives'), the traced bound is handled inside a while loop, so jax.jit(f5)(5) compiles once and returns 10.
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


import jax  # scaffolding

def f5(x):
  return jax.lax.fori_loop(0, x, lambda i,v: v+i, 0)

f5(5)

print(jax.jit(f5)(5))  # scaffolding: print
_report({"jit(f5)"}, 1)  # scaffolding
