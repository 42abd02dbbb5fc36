# source: https://github.com/flaport/sax/commit/362c969a7aaf4251738e8bce497da5b8ee854168
# expect: changing-static at line 55
# runtime: COMPILES 5 CALLS 5
# why: impedance() lists the (complex/float) reference impedance z0 in static_argnames, so sweeping z0 over values recompiles the model once per value.

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
from functools import partial  # scaffolding: `sax` is not installed, the two helpers below stand in for it

import jax
import jax.numpy as jnp


def reciprocal(sdict):  # scaffolding: stand-in for sax.reciprocal
    return {**sdict, **{(p2, p1): v for (p1, p2), v in sdict.items()}}


@partial(jax.jit, static_argnames=("z0",))
def impedance(
    f, z=50, z0=50
):
    f = jnp.asarray(f)
    sdict = {
        ("o1", "o1"): jnp.full(f.shape, z / (z + 2 * z0)),
        ("o1", "o2"): jnp.full(f.shape, 2 * z0 / (2 * z0 + z)),
        ("o2", "o2"): jnp.full(f.shape, z / (z + 2 * z0)),
    }
    return reciprocal(sdict)


f = jnp.linspace(1e9, 10e9, 500)  # scaffolding
calls = 0  # scaffolding
for z0 in [25.0, 50.0, 75.0, 100.0, 150.0]:  # scaffolding: sweep the reference impedance
    s = impedance(f=f, z=75.0, z0=z0)
    calls += 1  # scaffolding
_report({"jit(impedance)"}, calls)  # scaffolding
