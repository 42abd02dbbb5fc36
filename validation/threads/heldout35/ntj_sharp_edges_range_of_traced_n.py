# source: https://github.com/IanQS/numpy_to_jax/blob/0301de5f7595223117312a36d88d79d3bc135502/solutions/sol_06_sharp_edges.ipynb
# expect: trace-time-error at line 33
# runtime: ERROR TracerIntegerConversionError
# why: run_for_n loops `for i in range(n)`; jit(run_for_n) traces n, so range() of a tracer raises TracerIntegerConversionError.

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
from jax import grad, jit

def run_for_n(x, n):
    accum = 0
    for i in range(n):
        accum = accum + x
    return accum

print(run_for_n(5, 3))

try:  # scaffolding
    jitted_run_n = jit(run_for_n)

    print(jitted_run_n(5, n=3))
    _report({"jit(run_for_n)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
