# source: https://www.creativeworksofknowledge.com/cwk-quests/jax-quest/jit/1/
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the tutorial's trace-count demo calls one jitted function with two shapes (one new compile per shape, as intended), and the float64 request falls back to float32 without x64, so the fourth call hits the cache.

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


def trace_count_demo():
    n_traces = 0

    @jax.jit
    def f(x):
        nonlocal n_traces
        n_traces += 1  # trace 시점에만 +1
        return x * 2

    f(jnp.arange(10.))  # trace + compile + run
    f(jnp.arange(10.))  # cache hit
    f(jnp.arange(20.))  # 다른 shape → recompile
    f(jnp.arange(20., dtype=jnp.float64))  # 다른 dtype → recompile
    print(f"trace 횟수: {n_traces}")


trace_count_demo()  # scaffolding
_report({"jit(f)"}, 4)  # scaffolding
