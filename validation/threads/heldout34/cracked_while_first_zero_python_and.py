# source: https://crackedaicode.com/problems/jax-while-loop-bounded-search
# expect: trace-time-error at line 38
# runtime: ERROR TracerBoolConversionError
# why: The page's pitfall: the lax.while_loop condition combines two traced comparisons with Python `and`, which calls bool() on a tracer while the condition is traced.

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
# Problem page: "Implement while_find_first_zero(x, max_iters) using lax.while_loop ...
# Common pitfalls: Python `and` on tracers. (idx < n) and (x[idx] != 0.0) raises
# TracerBoolConversionError. Always use &."
from jax import lax
import jax.numpy as jnp


def while_find_first_zero(x, max_iters):  # scaffolding: the problem's signature
    n = min(max_iters, x.shape[0])  # the page: "Cap it: min(max_iters, n)"
    cond = lambda idx: (idx < n) and (x[idx] != 0.0)
    body = lambda idx: idx + 1
    return lax.while_loop(cond, body, jnp.int32(0))


try:  # scaffolding
    while_find_first_zero(jnp.array([1.0, 2.0, 0.0, 4.0]), 10)
    _report({"jit(while)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
