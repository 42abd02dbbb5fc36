# source: https://raw.githubusercontent.com/henryiii/python-performance-minicourse/master/06b_jax.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: f_jit prints its tracers only while tracing; the five calls use two input types (Python int and float), so f compiles twice and the repeated calls hit the cache.
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
import numpy as np

def f(x):
 print(f"{x = }")
 y = x**2
 print(f"{y = }")
 return y

f_jit = jax.jit(f)

f_jit(2)

f_jit(2)

f_jit(1.0)

f_jit(1.0)

f_jit(1)
_report({"jit(f)"}, 5)  # scaffolding
