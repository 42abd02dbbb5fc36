# source: https://github.com/patrick-kidger/equinox/issues/325
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: ahead-of-time lowering through eqx.filter_jit(f).lower(x, y).compile() works on equinox 0.13.8: the compiled function is built once and called once, with no error and no further compile.

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
import numpy as np
import equinox as eqx

def f(x, y): return 2 * x + y
x, y = 3, 4

lowered = eqx.filter_jit(f).lower(x, y)

# Print lowered HLO
print(lowered.as_text()[:40])

# Compile function
compiled = lowered.compile()

# Execute the compiled function!
print(compiled(x, y))
_report({"jit(f)"}, 1)
