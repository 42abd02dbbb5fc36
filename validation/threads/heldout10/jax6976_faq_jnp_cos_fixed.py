# source: https://github.com/jax-ml/jax/issues/6976
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with jnp.cos instead of numpy's np.cos the traced argument stays inside JAX, so jax.jit(func) traces, compiles once and returns cos(0)=1.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


def func(x):
  print(x)
  return jnp.cos(x)

res = jax.jit(func)(0.)
print(res)  # scaffolding
_report({"jit(func)"}, 1)  # scaffolding
