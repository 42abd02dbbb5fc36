# source: https://github.com/SSAGESLabs/PySAGES/pull/32
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: generalize jits the method's concrete update and then jits the wrapper that calls it (the TODO asks whether this is correct); on jax 0.10.2 the inner jit is traced inside the outer one, so three same-shape MD steps compile once.
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


from collections import namedtuple  # scaffolding

import jax.numpy as np  # scaffolding
from jax import jit


def generalize(concrete_update):
    _update = jit(concrete_update)

    def update(snapshot, state):
        vms = snapshot.vel_mass
        rs = snapshot.positions
        ids = snapshot.ids
        #
        return _update(state, rs, vms, ids)

    # TODO: Validate that jitting here gives correct results
    return jit(update)


Snapshot = namedtuple("Snapshot", ["positions", "vel_mass", "ids"])  # scaffolding: the backend's snapshot pytree
ABFState = namedtuple("ABFState", ["bias", "hist"])  # scaffolding


def abf_update(state, rs, vms, ids):  # scaffolding: a concrete method update (biasing force on a distance CV)
    xi = np.linalg.norm(rs[ids[0]] - rs[ids[1]])  # scaffolding
    return ABFState(state.bias - 0.1 * xi * vms[ids[0], 3], state.hist + 1)  # scaffolding


update = generalize(abf_update)  # scaffolding: what a sampling method's __call__ returns
state = ABFState(np.zeros(()), np.zeros((), dtype=np.int32))  # scaffolding
for k in range(3):  # scaffolding: three MD steps with same-shape snapshots
    snap = Snapshot(np.ones((4, 3)) * (k + 1), np.ones((4, 4)), np.arange(4))  # scaffolding
    state = update(snap, state)  # scaffolding
_report({"jit(update)", "jit(abf_update)"}, 3)  # scaffolding
