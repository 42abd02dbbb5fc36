# source: https://github.com/PlasmaControl/DESC/issues/1781
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the proposal (set default values as their final type): with every value a Python float, f sees one signature and compiles once for 5 calls.

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

a_s = [0., 0., 1., 1., 0.]  # the proposal: give defaults their final type (float, not None)
for a in a_s:
    print(f"========Value: {a} Type: {type(a)}=========")
    with jax.log_compiles():
        f(a)

_report({"jit(f)"}, len(a_s))  # scaffolding
