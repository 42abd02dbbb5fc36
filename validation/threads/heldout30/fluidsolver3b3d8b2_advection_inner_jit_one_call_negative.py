# source: https://github.com/plabadens/jax-fluid-solver/blob/3b3d8b2c25bfa00e79a680e82fe3a812240fbdff/notebooks/Advection.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 199
# why: advection defines and jits advection_iter inside its body, but the notebook calls advection once and the time loop reuses the same jitted function with the same shapes and Python-float u, dx, dt: one compile for 199 steps.
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
# cell 1
import jax
import jax.lax as lax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed (plot cells 3-5 cut)
from jax import Array, random, jit
from jax.typing import ArrayLike
# cell 2
def advection(u=1.0, n=100, its=1000, dt=1.0, L=1.0) -> Array:
    """
    Advection of a Gaussian profile with periodic boundary conditions.

    Args:
        u: Advection speed.
        n: Number of grid points.
        its: Number of iterations.
        dt: Time step.
        L: Length of the domain.

    Returns:
        phi: The final state of the advection.
    """
    dx = L / n
    phi = jnp.exp(-(jnp.linspace(0, L, n) - (L/2))** 2 / 10.0)

    @jit
    def advection_iter(
        phi: ArrayLike, u: float, dx: float, dt: float
    ) -> Array:
        return phi - dt * u / (dx) * (jnp.roll(phi, 0) - jnp.roll(phi, 1))

    for i in range(1, its):
        phi = advection_iter(phi, u, dx, dt)

    return phi

#with jax.profiler.trace("/tmp/jax-trace", create_perfetto_link=True, ):
phi = advection(n=int(1e3), its=200, dt=0.01, L=1.0)  # scaffolding: n=int(1e9), its=10000 in the notebook
print(phi[:3])  # scaffolding
_report({"jit(advection_iter)"}, 199)  # scaffolding: its - 1 calls
