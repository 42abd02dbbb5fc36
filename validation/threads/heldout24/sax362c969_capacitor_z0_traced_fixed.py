# source: https://github.com/gdsfactory/sax/commit/362c969a7aaf4251738e8bce497da5b8ee854168
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the commit z0 is an ordinary traced argument of impedance and capacitor (only capacitance stays static, passed as a constant), so the vmapped sweep traces and compiles once for its 3 calls.

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


import types
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# --- sax/s.py ---
def reciprocal(sdict):
    """Make an SDict S-matrix reciprocal by ensuring S[i,j] = S[j,i]."""
    return {
        **{(p1, p2): v for (p1, p2), v in sdict.items()},
        **{(p2, p1): v for (p1, p2), v in sdict.items()},
    }


sax = types.SimpleNamespace(reciprocal=reciprocal, SDict=dict, FloatArrayLike=object, ComplexLike=object,  # scaffolding: the sax namespace
                            FloatLike=object)  # scaffolding


# --- sax/models/rf.py (after the commit; docstring examples cut) ---
@jax.jit
def impedance(
    f: sax.FloatArrayLike, z: sax.ComplexLike = 50, z0: sax.ComplexLike = 50
) -> sax.SDict:
    r"""Generalized two-port impedance element.

    Args:
        f: Frequency in Hz
        z: Impedance in Ω
        z0: Reference impedance in Ω.

    Returns:
        S-dictionary representing the impedance element
    """
    f = jnp.asarray(f)
    sdict = {
        ("o1", "o1"): jnp.full(f.shape, z / (z + 2 * z0)),
        ("o1", "o2"): jnp.full(f.shape, 2 * z0 / (2 * z0 + z)),
        ("o2", "o2"): jnp.full(f.shape, z / (z + 2 * z0)),
    }
    return sax.reciprocal(sdict)


@partial(jax.jit, static_argnames=("capacitance",))
def capacitor(
    f: sax.FloatArrayLike = 5e9,
    capacitance: sax.FloatLike = 1e-15,
    z0: sax.ComplexLike = 50,
) -> sax.SDict:
    r"""Ideal two-port capacitor model.

    Args:
        f: Frequency in Hz
        capacitance: Capacitance in Farads
        z0: Reference impedance in Ω.

    Returns:
        S-dictionary representing the capacitor element
    """
    angular_frequency = 2 * jnp.pi * jnp.asarray(f)
    capacitor_impedance = 1 / (1j * angular_frequency * capacitance)
    return impedance(f=f, z=capacitor_impedance, z0=z0)


# --- driver: sweep the reference impedance of a series capacitor, as in a matching study --- scaffolding
f = np.linspace(1e9, 10e9, 50)  # scaffolding
z0s = jnp.array([25.0, 50.0, 75.0, 100.0])  # scaffolding


@jax.jit  # scaffolding
def transmission_vs_z0(z0s):  # scaffolding
    return jax.vmap(lambda z0: jnp.abs(capacitor(f=f, capacitance=1e-12, z0=z0)[("o1", "o2")]))(z0s)  # scaffolding


for _ in range(3):  # scaffolding
    t = transmission_vs_z0(z0s)  # scaffolding
print(np.round(np.asarray(t)[:, [0, -1]], 4))  # scaffolding
_report({"jit(transmission_vs_z0)"}, 3)  # scaffolding
