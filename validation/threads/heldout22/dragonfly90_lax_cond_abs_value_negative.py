# source: https://github.com/dragonfly90/jax_learning/blob/a35a83d0b516112fa5111fb4424937a56d87ba2b/06_scan_and_control_flow.py
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the branch on x is expressed with jax.lax.cond inside @jax.jit, so both calls (3.0 and -5.0) trace fine and share one executable.
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
import jax
import jax.numpy as jnp

# ---- 5. jax.lax.cond — Conditional execution ----
# cond(pred, true_fn, false_fn, *operands)

@jax.jit
def abs_value(x):
    return jax.lax.cond(
        x >= 0,
        lambda x: x,       # true branch
        lambda x: -x,      # false branch
        x
    )

print(f"\nabs(3.0) = {abs_value(3.0)}")
print(f"abs(-5.0) = {abs_value(-5.0)}")
_report({"jit(abs_value)"}, 2)  # scaffolding
