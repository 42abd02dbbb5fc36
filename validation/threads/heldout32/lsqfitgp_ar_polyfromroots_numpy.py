# source: https://github.com/Gattocrucco/lsqfitgp/commit/cbde80d7d23a3363f546c9954cb37de44b3170d8
# expect: trace-time-error at line 47
# runtime: ERROR TracerArrayConversionError
# why: Before the commit phi_from_roots built the polynomial with numpy.polynomial.polyfromroots on the jnp roots, which works eagerly but raises TracerArrayConversionError when the function is traced by jax.jit.

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


import numpy  # scaffolding
import jax  # scaffolding
from jax import numpy as jnp  # scaffolding


class AR:  # scaffolding: only the static method from lsqfitgp._kernels.AR

    @staticmethod
    def phi_from_roots(slnr, lnc):
        """
        Determine the autoregressive coefficients from the roots of the
        characteristic polynomial.
        """
        slnr = jnp.asarray(slnr)
        lnc = jnp.asarray(lnc)
        assert slnr.ndim == lnc.ndim == 1
        r = jnp.sign(slnr) * jnp.exp(jnp.abs(slnr))
        c = jnp.exp(lnc)
        roots = jnp.concatenate([r, c, jnp.conj(c)])
        coef = numpy.polynomial.polynomial.polyfromroots(roots)
        # TODO port polyfromroots to jax
        numpy.testing.assert_allclose(coef.imag, 0, rtol=0, atol=1e-4)
        coef = coef.real
        return -coef[1:] / coef[0]


print(AR.phi_from_roots([0.5], [0.3 + 1.0j]))  # scaffolding: works eagerly
phi_jit = jax.jit(AR.phi_from_roots)  # scaffolding
try:  # scaffolding
    for s in [0.5, 0.7, -0.4]:  # scaffolding
        phi = phi_jit(jnp.array([s]), jnp.array([0.3 + 1.0j]))
    _report({"jit(phi_from_roots)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
