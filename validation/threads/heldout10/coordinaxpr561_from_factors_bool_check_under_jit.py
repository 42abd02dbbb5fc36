# source: https://github.com/GalacticDynamics/coordinax/pull/561
# expect: trace-time-error at line 40
# runtime: ERROR TracerBoolConversionError
# why: Scale.from_factors validates its input with `if bool(jnp.any(...)): raise ValueError(...)`; building the transform inside eqx.filter_jit makes the factors traced, so bool() on the traced result raises instead of validating.

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


class Scale(eqx.Module):  # scaffolding: stand-in for coordinax.transforms.Scale
    matrix: jax.Array

    @classmethod
    def from_factors(cls, factors):
        factors = jnp.asarray(factors)
        if bool(jnp.any(factors == 0)):
            raise ValueError("scale factors must be non-zero")
        return cls(jnp.diag(factors))


try:  # scaffolding
    eqx.filter_jit(Scale.from_factors)(jnp.asarray([2., 0., 4.]))
    _report({"jit(from_factors)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
