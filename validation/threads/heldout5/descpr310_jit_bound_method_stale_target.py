# source: https://github.com/PlasmaControl/DESC/pull/310
# expect: stale-closure at line 50
# runtime: COMPILES 1 CALLS 2
# why: build() replaces compute_scaled with jit(self.compute_scaled), which closes over self; target is changed afterwards, but the compiled function keeps the target it was traced with, so the second call returns the stale 4.0 instead of 1.0 (the PR: 'updating the attributes of the objective (target, weight etc) are not correctly updated in the jitted code').
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


from jax import jit


class _Objective:  # scaffolding: desc.objectives.objective_funs._Objective, trimmed
    def __init__(self, target=0, weight=1):
        self.target = target
        self.weight = weight

    def build(self, use_jit=True):
        if use_jit:
            self.compute_scaled = jit(self.compute_scaled)

    def compute(self, x):  # scaffolding: a concrete objective's compute
        return x**2  # scaffolding

    def compute_scaled(self, x):
        f = self.compute(x)
        return self.weight * (f - self.target)


obj = _Objective(target=0.0)  # scaffolding
obj.build()  # scaffolding
print(obj.compute_scaled(2.0))  # scaffolding: 4.0
obj.target = 3.0
print(obj.compute_scaled(2.0), "(expected 1.0)")  # scaffolding: still 4.0
_report({"jit(compute_scaled)"}, 2)  # scaffolding
