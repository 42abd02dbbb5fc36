# source: https://apxml.com/courses/getting-started-with-jax/chapter-2-accelerating-functions-jit/jit-common-pitfalls
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the page's fix traces both branches with lax.cond and selects at run time, so the jitted function compiles once and serves a positive and a negative input.

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
from jax import lax
def condition_on_value_lax(x):
    # Define functions for true and false branches
    def true_fun(operand):
        return operand * 2
    def false_fun(operand):
        return operand / 2
    # Use lax.cond: condition, true branch, false branch, operand
    return lax.cond(x > 0, true_fun, false_fun, x)  # scaffolding (completed line)
jitted_condition_lax = jax.jit(condition_on_value_lax)  # scaffolding
print(jitted_condition_lax(jnp.array(5.0)))
print(jitted_condition_lax(jnp.array(-3.0)))
_report({"jit(condition_on_value_lax)"}, 2)  # scaffolding
