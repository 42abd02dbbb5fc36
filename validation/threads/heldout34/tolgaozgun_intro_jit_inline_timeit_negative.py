# source: https://github.com/tolgaozgun/Introduction-to-JAX/blob/7529abbaf5dc746b1f245d18cd5240a5411c60bd/Intro_to_JAX.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: jax.jit(f)(...) is rebuilt inside the timed statement on every repetition, which looks like jit-in-a-loop, but f is the same function object so every call after the first hits the compilation cache.

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
# --- cell 0 (imports) ---
import jax
import jax.numpy as jnp
import numpy as np

# --- cell 9 ---
def f(x):
  return -4*x*x*x + 9*x*x + 6*x - 3

x = np.random.randn(1000, 1000)  # scaffolding: (10000, 10000) in the notebook

for _ in range(4):  # scaffolding: stands in for %timeit
  f(x) # NumPy
for _ in range(4):  # scaffolding: stands in for %timeit
  jax.jit(f)(jnp.array(x)) # JAX + JIT
_report({"jit(f)"}, 4)  # scaffolding
