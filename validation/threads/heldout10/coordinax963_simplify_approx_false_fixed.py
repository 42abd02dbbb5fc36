# source: https://github.com/GalacticDynamics/coordinax/issues/963
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The escape hatch named in the issue: with approx=False the short-circuiting `and` never evaluates jnp.allclose, so simplify traces under jax.jit and returns the operator unchanged; the jitted lambda compiles once.

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


f = jax.jit(lambda R: simplify(Rotate(R), approx=False).R)  # scaffolding: the approx=False escape hatch
f(jnp.eye(3))
f(jnp.eye(3) * 2.0)  # scaffolding: second call, same shape
_report({"jit(<lambda>)"}, 2)  # scaffolding
