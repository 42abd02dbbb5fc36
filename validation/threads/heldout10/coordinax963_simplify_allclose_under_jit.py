# source: https://github.com/GalacticDynamics/coordinax/issues/963
# expect: trace-time-error at line 49
# runtime: ERROR TracerBoolConversionError
# why: simplify(Rotate) tests `approx and jnp.allclose(op.R, jnp.eye(3))` in a Python if; under jax.jit the rotation matrix is traced, so the allclose result is a tracer and the if raises a boolean-conversion error instead of declining to simplify.

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
import equinox as eqx
import jax
import jax.numpy as jnp


class Rotate(eqx.Module):  # scaffolding: stand-in for coordinax.transforms.Rotate
    R: jax.Array


class Identity(eqx.Module):  # scaffolding: stand-in for coordinax's identity operator
    @property
    def R(self):
        return jnp.eye(3)


identity = Identity()  # scaffolding


def simplify(op: Rotate, /, *, approx: bool = True, **kw):
    """Simplify the Galilean rotation operator."""
    if approx and jnp.allclose(op.R, jnp.eye(3), **kw):
        return identity
    return op


try:  # scaffolding
    jax.jit(lambda R: simplify(Rotate(R)).R)(jnp.eye(3))
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
