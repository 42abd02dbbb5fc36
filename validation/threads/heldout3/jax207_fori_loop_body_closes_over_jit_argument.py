# source: https://github.com/jax-ml/jax/issues/207
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the fori_loop body closes over a, a tracer of the jitted test_get; in 2019 this raised 'No constant handler', but on jax 0.10.2 loop bodies may close over tracers, so test_get_jit compiles once and runs.

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


import jax.numpy as np  # scaffolding
from jax import jit, lax  # scaffolding

def iterate(f, init_row, steps):
  def body_fun(step, result):
    return f(result)
  return lax.fori_loop(0, steps, body_fun, init_row)

def test_get(a,b): return iterate(lambda x: x[a], b, 10)
test_get_jit = jit(test_get)
print(test_get_jit(np.array([0,1,2,3]), np.array([0,1,2,3])))
_report({"jit(test_get)"}, 1)  # scaffolding
