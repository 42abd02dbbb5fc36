# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: with static_argnames='length' the shape is a Python int at trace time; the two calls with length 10 and 5 compile once each (2 compiles, 2 calls), which the guide announces ('recompiles').
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


import jax.numpy as jnp  # scaffolding (earlier cell)
from jax import jit  # scaffolding (earlier cell)

def example_fun(length, val):
  return jnp.ones((length,)) * val

# static_argnames tells JAX to recompile on changes at these argument positions:
good_example_jit = jit(example_fun, static_argnames='length')
# first compile
print(good_example_jit(10, 4))
# recompiles
print(good_example_jit(5, 4))
_report({"jit(example_fun)"}, 2)  # scaffolding
