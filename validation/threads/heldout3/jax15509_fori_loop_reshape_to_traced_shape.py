# source: https://github.com/jax-ml/jax/issues/15509
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: inside lax.fori_loop the index idx is traced, so shape_list[idx] is a traced array and vec.reshape(shape) raises TypeError (shapes must be concrete), although the Python for loop works.

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
import jax.numpy as jnp  # scaffolding

vector = jnp.zeros(2 ** 5)

def f(idx, vec):
    shape = shape_list[idx]
    return vec.reshape(shape)


shape_list = jnp.array([[2, 2, 1, 2, 4, ],
                        [1, 2, 2, 2, 4, ],
                        [4, 2, 1, 2, 2, ]])
call_back_f = f  # scaffolding
try:  # scaffolding
    jax.lax.fori_loop(0, len(shape_list), call_back_f, vector)
    print("COMPILES 0 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
# for i in range(len(shape_list)):
#    vector = f(i, vector)
