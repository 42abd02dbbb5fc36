# source: https://github.com/GMW99/jax-docs
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: the notebook's fix jax.jit(g, static_argnums=1) makes n static; repeated calls with n=20 reuse one compile.
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

def g(x, n):
  i = 0
  while i < n:
    i += 1
  return x + i

g_jit_correct = jax.jit(g, static_argnums=1)
print(g_jit_correct(10, 20))

print("g jitted:")
for _ in range(5):  # scaffolding: %timeit
    g_jit_correct(10, 20).block_until_ready()
_report({"jit(g)"}, 6)  # scaffolding
