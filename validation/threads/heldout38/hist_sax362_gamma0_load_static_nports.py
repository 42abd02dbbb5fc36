# source: https://github.com/flaport/sax/commit/362c969a7aaf4251738e8bce497da5b8ee854168
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: gamma_0_load keeps n_ports in static_argnames (untouched by the commit); it is a small int that sizes the S-dictionary, and a sweep over the reflection coefficient with fixed n_ports reuses one compile.

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
from functools import partial  # scaffolding: `sax` is not installed, reciprocal below stands in for it

import jax
import jax.numpy as jnp
import numpy as np


def reciprocal(sdict):  # scaffolding: stand-in for sax.reciprocal
    return {**sdict, **{(p2, p1): v for (p1, p2), v in sdict.items()}}


@partial(jax.jit, static_argnames=("n_ports",))
def gamma_0_load(
    f=5e9,
    gamma_0=0,
    n_ports=1,
):
    f = jnp.asarray(f)
    sdict = {
        (f"o{i}", f"o{i}"): jnp.full(len(f), gamma_0) for i in range(1, n_ports + 1)
    }
    sdict |= {
        (f"o{i}", f"o{j}"): jnp.zeros(len(f), dtype=complex)
        for i in range(1, n_ports + 1)
        for j in range(i + 1, n_ports + 1)
    }
    return reciprocal(sdict)


f = np.linspace(1e9, 10e9, 500)
calls = 0  # scaffolding
for phase in [0.0, 0.25, 0.5, 0.75]:  # scaffolding: the docstring example, for four reflection phases
    gamma_0 = 0.5 * np.exp(1j * np.pi * phase)
    s = gamma_0_load(f=f, gamma_0=gamma_0, n_ports=2)
    calls += 1  # scaffolding
_report({"jit(gamma_0_load)"}, calls)  # scaffolding
