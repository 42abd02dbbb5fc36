# source: https://github.com/jax-ml/jax/pull/5905
# expect: stale-closure at line 34
# runtime: COMPILES 1 CALLS 2
# why: global_list.append(x) is a Python side effect: under jit it runs once, at trace time, and appends a tracer; the second call appends nothing (one entry, a tracer, after two calls).
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

global_list = []

def log2(x):
  global_list.append(x)
  ln_x = jnp.log(x)
  ln_2 = jnp.log(2.0)
  return ln_x / ln_2

log2_jit = jax.jit(log2)  # scaffolding: the notebook uses jax.make_jaxpr(log2)(3.0)
log2_jit(3.0)
log2_jit(4.0)
print(len(global_list), type(global_list[0]).__name__)
_report({"jit(log2)"}, 2)
