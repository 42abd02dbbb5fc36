# source: https://github.com/jax-ml/jax/issues/1567
# expect: trace-time-error at line 38
# runtime: ERROR TypeError
# why: step is jitted as a plain function, so self (an attr.s World, not a registered pytree) is an argument jit must trace, and it raises TypeError (not a valid JAX type).
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
import attr
import jax
import numpy as np


@attr.s
class World:
    p: np.ndarray = attr.ib()
    v: np.ndarray = attr.ib()

    @jax.jit
    def step(self, dt):
        a = - 9.8
        v = a * dt
        p = self.v *dt
        return attr.evolve(self, p=p, v=v)


w = World(p=np.zeros(3), v=np.ones(3))  # scaffolding
try:  # scaffolding
    w.step(0.1)
    _report({"jit(step)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
