# source: https://github.com/exoplanet-dev/jaxoplanet/issues/234
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the fix (73c8aac, PR #236) deletes the assert from Ylm.normalize, so normalizing a Ylm that went through jax.jit traces and compiles once.
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
from collections.abc import Mapping

import equinox as eqx
import jax
import jax.numpy as jnp  # scaffolding
from jax import Array  # scaffolding: jaxoplanet.types.Array


class Ylm(eqx.Module):
    """Ylm object containing the spherical harmonic coefficients."""

    data: dict[tuple[int, int], Array]
    deg: int = eqx.field(static=True)
    diagonal: bool = eqx.field(static=True)

    def __init__(
        self,
        data: Mapping[tuple[int, int], Array] | None = None,
    ):
        if data is None:
            data = {(0, 0): 1.0}

        self.data = dict(data)
        self.deg = max(ell for ell, _ in data.keys())
        self.diagonal = all(m == 0 for _, m in data.keys())

    @staticmethod
    def index(l: Array, m: Array) -> Array:
        """Convert the degree and order of the spherical harmonic to the
        corresponding index in the coefficient array."""
        return l * (l + 1) + m

    def normalize(self) -> "Ylm":
        """Return a new Ylm instance with coefficients normalized to :math:`Y_{0,0}`."""

        data = {k: v / self.data[(0, 0)] for k, v in self.data.items()}
        return Ylm(data=data)


ylm = Ylm({(0, 0): jnp.array(2.0), (1, 0): jnp.array(0.5), (1, 1): jnp.array(0.1)})  # scaffolding
print(ylm.normalize().data[(1, 0)])  # scaffolding: works without jit
try:  # scaffolding
    out = jax.jit(lambda y: y.normalize())(ylm)  # scaffolding
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
