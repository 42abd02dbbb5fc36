# source: https://github.com/jax-ml/jax/issues/1671
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the thread was resolved by pmap's static_broadcasted_argnums (PR #1786): use_b is a static Python bool of pmap itself, so the branch is taken at trace time; 2 compiles (True, then False) for 3 calls, the repeat hits the cache.

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
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"  # scaffolding: 8 CPU devices for pmap
import jax 
import jax.numpy as np

def func(a, b, use_b):
  if use_b:
    return a * b
  else:
    return a ** 2

pmapped = jax.pmap(func, static_broadcasted_argnums=2)

def p_wrapper(a, b=None):
  b, use_b = (np.ones_like(a), False) if b is None else (b, True)
  return pmapped(a, b, use_b)

a = np.ones([8, 2]) * 2
b = np.arange(16).reshape([8, 2])
print(p_wrapper(a, b))
print(p_wrapper(a))
print(p_wrapper(a, b))  # scaffolding: a repeat call hits the cache
_report({"jit(_fun)"}, 3)  # scaffolding: pmap compiles under the name jit(_fun) on 0.10.2
