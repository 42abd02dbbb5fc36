# source: https://github.com/GalacticDynamics/galax/commit/f4ea8dcda8c94be9d947336479c2c9f23861a08b
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: After the commit the delegating method is not jitted, so the deferred import runs eagerly and only the already-jitted specific_angular_momentum compiles.
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



import dataclasses
import functools as ft
import importlib.abc
import importlib.util
import sys

import jax
import jax.numpy as jnp

# scaffolding: the galax.dynamics / galax.potential portions as in-memory modules, imported lazily
_SCAFFOLD_SOURCES = {  # scaffolding
    "galax_potential": '''
import jax.numpy as jnp
_CONST_G = 4.498502151469554e-12  # kpc3 / (Msun Myr2)
default_constants = {"G": jnp.asarray(_CONST_G)}  # module-level constant, as galax.potential's ImmutableMap of Q.from_(_CONST_G)


class KeplerPotential:
    def __init__(self, m_tot, constants=default_constants):
        self.m_tot, self.constants = m_tot, constants

    def potential(self, q):
        return -self.constants["G"] * self.m_tot / jnp.linalg.norm(q, axis=-1)
''',  # scaffolding
    "galax_dynamics": '''
import jax
import jax.numpy as jnp
import galax_potential  # galax.dynamics pulls in galax.potential


@jax.jit
def specific_angular_momentum(w):
    return jnp.cross(w.q, w.p)
''',  # scaffolding
}  # scaffolding


class _ScaffoldFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):  # scaffolding
    def find_spec(self, name, path, target=None):  # scaffolding
        return importlib.util.spec_from_loader(name, self) if name in _SCAFFOLD_SOURCES else None  # scaffolding

    def create_module(self, spec):  # scaffolding
        return None  # scaffolding

    def exec_module(self, module):  # scaffolding
        exec(_SCAFFOLD_SOURCES[module.__name__], module.__dict__)  # scaffolding


sys.meta_path.insert(0, _ScaffoldFinder())  # scaffolding


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class PhaseSpacePosition:  # scaffolding: cut-down AbstractPhaseSpaceObject (positions and velocities as arrays)
    q: jax.Array  # scaffolding
    p: jax.Array  # scaffolding

    # Deliberately not `jax.jit`-ed: the body defers the dynamics import, and under jit
    # that import runs inside a live trace.
    def angular_momentum(self):
        from galax_dynamics import specific_angular_momentum

        return specific_angular_momentum(self)


w = PhaseSpacePosition(q=jnp.array([[8.0, 0.0, 0.0]]), p=jnp.array([[0.0, 0.22, 0.0]]))  # scaffolding: a star in the disc
try:  # scaffolding
    L = w.angular_momentum()  # scaffolding: first use of the dynamics portion
    from galax_potential import KeplerPotential  # scaffolding: later user code builds a potential
    pot = KeplerPotential(m_tot=1e12)  # scaffolding
    for x in [8.0, 10.0, 12.0]:  # scaffolding
        pot.potential(jnp.array([x, 0.0, 0.0])).block_until_ready()  # scaffolding
    _report({"jit(angular_momentum)", "jit(specific_angular_momentum)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
