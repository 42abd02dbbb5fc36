# source: https://github.com/GMW99/jax-docs
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: jax.jit(unjitted_loop_body) is re-wrapped on every iteration ('Don't do this!'), but the wrapped function is the same module-level object, so the wrappers share one cache: it compiles once and is reused for all 20 iterations, as the notebook's own timings suggest.
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

# While loop conditioned on x and n with a jitted body.

@jax.jit
def loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted(x, n):
  i = 0
  while i < n:
    i = loop_body(i)
  return x + i

g_inner_jitted(10, 20)

def unjitted_loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted_poorly(x, n):
  i = 0
  while i < n:
    # Don't do this!
    i = jax.jit(unjitted_loop_body)(i)
  return x + i

print("jit called outside the loop:")
g_inner_jitted(10, 20).block_until_ready()  # scaffolding: %timeit

print("jit called inside the loop:")
g_inner_jitted_poorly(10, 20).block_until_ready()  # scaffolding: %timeit
_report({"jit(unjitted_loop_body)"}, 20)  # scaffolding: the 20 re-wrapped calls
