# source: https://github.com/jax-ml/jax/issues/28032
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the jitted function walks the Python stack and reads frame locals while tracing with jax_check_tracer_leaks on; on jax 0.10.2 (Python 3.11.7) tracing succeeds, jit compiles once and nothing leaks or raises.

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
import traceback

import jax


jax.config.update("jax_check_tracer_leaks", True)

def function_with_stack_walk(x):
    for frame, _ in traceback.walk_stack(None):
        frame.f_locals.get("__jax_jit_id__", None)

jax.jit(function_with_stack_walk)(1)
_report({"jit(function_with_stack_walk)"}, 1)  # scaffolding
