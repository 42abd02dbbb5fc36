# source: https://docs.jax.dev/en/latest/aot.html
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the static first argument gets a concrete value (7, then 10) and only the second is abstract; each AOT compile runs once (2 compiles, 2 calls).
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
import jax.numpy as jnp  # scaffolding

def f(x, y): return 2 * x + y  # scaffolding: from the page's first example
i32_scalar = jax.ShapeDtypeStruct((), jnp.dtype('int32'))

lowered_with_x = jax.jit(f, static_argnums=0).trace(7, 8).lower()

# Lowered HLO, specialized to the *value* of the first argument (7)
print(lowered_with_x.as_text())

print(lowered_with_x.compile()(5))  # scaffolding: print

print(jax.jit(f, static_argnums=0).trace(10, i32_scalar).lower().compile()(5))  # scaffolding: print
_report({"jit(f)"}, 2)  # scaffolding
