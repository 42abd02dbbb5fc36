# source: https://github.com/PlasmaControl/DESC/issues/1781
# expect: shape-churn at line 39
# runtime: COMPILES 3 CALLS 5
# why: the same jitted f is called with None, Python ints and Python floats: each new kind of argument (no leaf, weak int, weak float) is a new abstract signature, so f compiles 3 times for 5 calls (the issue: passing alpha=None and then a float compiles twice).

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


@jax.jit
def f(x):
    return x

a_s = [None, 0, 1, 1., 0.]
for a in a_s:
    print(f"========Value: {a} Type: {type(a)}=========")
    with jax.log_compiles():
        f(a)

_report({"jit(f)"}, len(a_s))  # scaffolding
