# source: https://github.com/Autodesk/XLB/commit/c87b3a5d0a9bb7713676968284744987f72b5fc8
# expect: stale-closure at line 76
# runtime: COMPILES 1 CALLS 3
# why: BGK.jax_implementation is jitted with self static and reads the relaxation parameter self.omega inside; self hashes by identity, so after collision.omega is changed the cached executable keeps the first omega and returns stale populations (the commit moves omega into the method arguments).

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
from functools import partial

import jax.numpy as jnp
from jax import jit


class Operator:  # scaffolding: stands in for xlb.operator.Operator (backend registry, precision policy)
    def __call__(self, *args, **kwargs):
        return self.jax_implementation(*args, **kwargs)

    @property
    def compute_dtype(self):
        return jnp.float32


class Collision(Operator):
    """
    Base class for collision operators.

    This class defines the collision step for the Lattice Boltzmann Method.

    Parameters
    ----------
    omega : float
        Relaxation parameter for collision step. Default value is 0.6.
    shear : bool
        Flag to indicate whether the collision step requires the shear stress.
    """

    def __init__(
        self,
        omega: float,
        velocity_set=None,
        precision_policy=None,
        compute_backend=None,
    ):
        self.omega = omega


class BGK(Collision):
    """
    BGK collision operator for LBM.
    """

    @partial(jit, static_argnums=(0,))
    def jax_implementation(self, f: jnp.ndarray, feq: jnp.ndarray, rho, u):
        fneq = f - feq
        fout = f - self.compute_dtype(self.omega) * fneq
        return fout


# scaffolding: D2Q9 populations on a 16x16 grid, and an omega ramp applied to one collision operator
f = jnp.full((9, 16, 16), 0.12)  # scaffolding
feq = jnp.full((9, 16, 16), 0.10)  # scaffolding
rho, u = jnp.ones((1, 16, 16)), jnp.zeros((2, 16, 16))  # scaffolding
collision = BGK(omega=1.0)  # scaffolding
got, want = [], []  # scaffolding
for omega in (1.0, 1.4, 1.8):  # scaffolding
    collision.omega = omega  # scaffolding
    fout = collision(f, feq, rho, u)
    got.append(round(float(fout[0, 0, 0]), 4)); want.append(round(0.12 - omega * 0.02, 4))  # scaffolding
print("OUTPUTS", got, "expected", want)  # scaffolding
_report({"jit(jax_implementation)"}, 3)
