# source: https://github.com/GalacticDynamics/coordinax/pull/561
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The PR's fix: the check becomes eqx.error_if on the factors, threaded into the constructed matrix, so from_factors traces under filter_jit and compiles once; valid factors build the transform (a singular input would raise at run time instead).

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
        factors = eqx.error_if(factors, jnp.any(factors == 0), "scale factors must be non-zero")
        return cls(jnp.diag(factors))


build = eqx.filter_jit(Scale.from_factors)  # scaffolding
build(jnp.asarray([2., 3., 4.]))
build(jnp.asarray([1., 5., 2.]))
_report({"jit(from_factors)"}, 2)  # scaffolding
