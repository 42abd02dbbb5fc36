# source: https://github.com/jax-ml/jax/issues/1832
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: mattjj's advice: apply jit once outside the timing loop; the jitted gradient then compiles once for 3 calls.

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


from jax import jit, grad
import jax.numpy as np
from jax import lax

def func_jax(x):
    def body(f_prev, x_i):
      return f_prev + x_i, f_prev + x_i
    _, f = lax.scan(body, 0., x)
    return np.sum(f)

g = jit(grad(func_jax))
x = np.ones(100)  # scaffolding
for _ in range(3):  # scaffolding: %timeit in the notebook
    g(x)
_report({"jit(func_jax)"}, 3)  # scaffolding
