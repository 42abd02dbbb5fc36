# source: https://jax.readthedocs.io/en/latest/jax-101/02-jitting.html
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: jax.jit(unjitted_loop_body) is re-wrapped on each of the 20 loop iterations ('Don't do this!'), but the wrapped function is the same module-level object, so the compile is cached: 1 compile for 20 calls (the page's claim that it compiles each time no longer holds; cf. jax#9288).
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


import jax  # scaffolding (earlier cell)

def unjitted_loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted_poorly(x, n):
  i = 0
  while i < n:
    # Don't do this!
    i = jax.jit(unjitted_loop_body)(i)
  return x + i

print("jit called inside the loop:")
print(g_inner_jitted_poorly(10, 20))  # scaffolding (page: %timeit g_inner_jitted_poorly(10, 20).block_until_ready())
_report({"jit(unjitted_loop_body)"}, 20)  # scaffolding
