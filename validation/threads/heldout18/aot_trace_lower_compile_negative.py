# source: https://docs.jax.dev/en/latest/aot.html
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: jax.jit(f).trace(x, y).lower().compile() compiles once ahead of time; the compiled object and a second AOT compile for an int32 ShapeDtypeStruct signature run with matching argument types (2 compiles, 2 calls).
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

def f(x, y): return 2 * x + y
x, y = 3, 4

traced = jax.jit(f).trace(x, y)

# Print the specialized, staged-out representation (as Jaxpr IR)
print(traced.jaxpr)

lowered = traced.lower()

# Print lowered HLO
print(lowered.as_text())

compiled = lowered.compile()

# Query for cost analysis, print FLOP estimate
compiled.cost_analysis()['flops']

# Execute the compiled function!
print(compiled(x, y))  # scaffolding: print

i32_scalar = jax.ShapeDtypeStruct((), jnp.dtype('int32'))
print(jax.jit(f).trace(i32_scalar, i32_scalar).lower().compile()(x, y))  # scaffolding: print
_report({"jit(f)"}, 2)  # scaffolding
