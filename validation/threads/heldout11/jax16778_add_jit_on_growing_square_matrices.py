# source: https://github.com/jax-ml/jax/issues/16778
# expect: shape-churn at line 51
# runtime: COMPILES 8 CALLS 8
# why: every loop iteration builds i-by-i matrices for a new i, so add_jit meets a new input shape on every call and compiles a new executable each time (the executables the reporter sees piling up).

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
from typing import Sequence  # scaffolding
import numpy as np  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding


def add(a, b):
  x0 = jnp.dot(a, b)
  x1 = jnp.dot(x0, a)
  x2 = jnp.dot(x1, a)
  x3 = jnp.dot(x2, a)
  x = x0 + x1 + x2 + x3
  return a, x


def main(argv: Sequence[str]) -> None:
  print('Foo')

  add_jit = jit(add)

  for i in range(2, 10):  # scaffolding: range(2, 1000) in the issue
    print(f'i: {i}')
    a = np.array(np.arange(i*i), dtype=np.float32).reshape((i, i))
    b = np.array(np.arange(i*i), dtype=np.float32).reshape((i, i))
    c = add_jit(a, b)


main([])  # scaffolding: the issue runs main through absl's app.run
_report({"jit(add)"}, 8)  # scaffolding
