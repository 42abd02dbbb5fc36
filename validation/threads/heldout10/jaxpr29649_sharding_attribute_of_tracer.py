# source: https://github.com/jax-ml/jax/pull/29649
# expect: trace-time-error at line 35
# runtime: ERROR AttributeError
# why: x is traced inside the jitted f, and a traced array has no concrete sharding, so print(x.sharding) raises AttributeError at trace time.

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
import jax.numpy as jnp  # scaffolding


@jax.jit  # scaffolding: the PR shows only `print(x.sharding)` under a jit of f
def f(x):
  print(x.sharding)
  return x


try:  # scaffolding
  f(jnp.arange(3.))  # scaffolding: the PR's message names a float32[3] argument
  _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
