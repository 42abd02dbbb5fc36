# source: https://github.com/jax-ml/jax/issues/2072
# expect: shape-churn at line 44
# runtime: COMPILES 9 CALLS 9
# why: f_jit is called on arrays whose second dimension changes on every iteration, so every call is a new shape and compiles again (mattjj: 'we'd expect the compile cache to grow').

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
from jax import jit  # scaffolding: jax.api in 2020
from jax import random
from jax import numpy as np
from datetime import datetime

def f(x, y):
  return np.mean(x.T @ y)

f_jit = jit(f)

n = 0  # scaffolding
for i in range(3, 0, -1):  # scaffolding: 15000 in the thread
  x = random.normal(random.PRNGKey(i), (500, i))
  for j in range(3, 0, -1):  # scaffolding: 15000 in the thread
    y = random.normal(random.PRNGKey(j), (500, j))
    res = f_jit(x, y)
    n += 1  # scaffolding
    if i % 500 == 0 and j % 500 == 0:
      print(datetime.now(), i, j, res)
_report({"jit(f)"}, n)
