# source: https://github.com/gbionics/jaxsim/issues/196
# expect: trace-time-error at line 59
# runtime: ERROR ValueError
# why: PlaneTerrain.__eq__ compares with jnp.allclose; when JAX compares two equal static terrains inside an outer jit trace, jnp.allclose returns a tracer and its bool() fails, raised as ValueError (static arguments must be comparable).
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
# gbionics/jaxsim issue #196: PlaneTerrain.__eq__ (src/jaxsim/terrain/terrain.py before the fix, PR #198) reached from inside a jit trace
import dataclasses
import functools  # scaffolding

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True, eq=False)  # scaffolding: jax_dataclasses.pytree_dataclass (not installed); the terrain is a static model field
class PlaneTerrain:
    z: float = dataclasses.field(default=0.0, kw_only=True)
    plane_normal: tuple[float, float, float] = dataclasses.field(
        default=(0.0, 0.0, 0.0), kw_only=True
    )

    def height(self, x, y):
        # Get the plane equation coefficients from the terrain normal.
        A, B, C = self.plane_normal

        # Compute the final coefficient D considering the terrain height.
        D = -C * self.z

        # Invert the plane equation to get the height at the given (x, y) coordinates.
        return jnp.array(-(A * x + B * y + D) / C).astype(float)

    def __hash__(self) -> int:
        return hash((hash(self.z), hash(tuple(self.plane_normal))))  # scaffolding: HashedNumpyArray.hash_of_array stand-in

    def __eq__(self, other: "PlaneTerrain") -> bool:  # annotation quoted: the module's from __future__ import annotations cannot follow the harness

        if not isinstance(other, PlaneTerrain):
            return False

        if not (
            jnp.allclose(self.z, other.z)
            and jnp.allclose(
                jnp.array(self.plane_normal, dtype=float),
                jnp.array(other.plane_normal, dtype=float),
            )
        ):
            return False

        return True


# scaffolding: a jitted model function with the terrain static (as jaxsim's model is), called from a jitted simulate step
# for two trials that each build their own (equal) terrain, as an Optuna study does
@functools.partial(jax.jit, static_argnames=("terrain",))  # scaffolding
def terrain_height(x, terrain):  # scaffolding
    return terrain.height(x=x, y=0.0 * x)  # scaffolding


terrain_trial_0 = PlaneTerrain(z=0.1, plane_normal=(0.0, 0.6, 0.8))  # scaffolding
terrain_trial_1 = PlaneTerrain(z=0.1, plane_normal=(0.0, 0.6, 0.8))  # scaffolding


@jax.jit
def simulate(x):  # scaffolding
    return terrain_height(x, terrain=terrain_trial_0) + terrain_height(x, terrain=terrain_trial_1)  # scaffolding


try:  # scaffolding
    print(simulate(jnp.array(1.0)))  # scaffolding
    _report({"jit(simulate)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
