# source: https://github.com/scipy/scipy/pull/23588
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: Rotation.__iter__ loops in Python over the static number of rotations (self._quat.shape[0]) and yields traced quaternions, so iterating a Rotation inside jax.jit works and three same-shape calls compile once; the PR only removes the jax_jit=False capability flag.
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


os.environ.setdefault("SCIPY_ARRAY_API", "1")  # scaffolding: scipy's array-API (JAX) dispatch, as in scipy's JAX test runs
import jax  # scaffolding
import jax.numpy as xp  # scaffolding
from scipy.spatial.transform import Rotation  # scaffolding

q = xp.asarray([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]])  # scaffolding: two rotations


@jax.jit  # scaffolding: the PR lifts jax_jit=False from Rotation.__iter__ so its tests run it under jit
def run(q):  # scaffolding
    r = Rotation.from_quat(q)  # scaffolding
    return [ri.as_quat() for ri in r]  # Rotation.__iter__: a Python loop over range(self._quat.shape[0])


for k in range(3):  # scaffolding
    run(q * (k + 1))  # scaffolding
_report({"jit(run)"}, 3)  # scaffolding
