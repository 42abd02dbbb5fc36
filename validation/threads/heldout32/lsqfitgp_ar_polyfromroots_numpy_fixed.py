# source: https://github.com/Gattocrucco/lsqfitgp/commit/cbde80d7d23a3363f546c9954cb37de44b3170d8
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit replaces polyfromroots with jnp.poly and runs the numpy imaginary-part check only when the coefficients are concrete, so the jitted function traces and compiles once for three calls.

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
from jax import core  # scaffolding
from jax import numpy as jnp  # scaffolding
from jax import tree_util  # scaffolding


# --- lsqfitgp/_patch_jax.py ---
def _isconcrete(x):
    return not isinstance(x, core.Tracer)  # scaffolding: jax 0.10.2 has no core.ConcreteArray

def isconcrete(*args):
    children, _ = tree_util.tree_flatten(args)
    return all(map(_isconcrete, children))

def _concrete(x):
    return x  # scaffolding: only reached for non-tracers here

def concrete(*args):
    result = tree_util.tree_map(_concrete, args)
    if len(args) == 1:
        result, = result
    return result


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
        roots = jnp.concatenate([r, c, c.conj()]).sort()
        coef = jnp.poly(roots)
        if isconcrete(coef):
            c = concrete(coef)
            numpy.testing.assert_allclose(numpy.imag(c), 0, rtol=0, atol=1e-4)
        coef = jnp.atleast_1d(coef.real)[::-1]
        return -coef[1:] / coef[0]


print(AR.phi_from_roots([0.5], [0.3 + 1.0j]))  # scaffolding: works eagerly
phi_jit = jax.jit(AR.phi_from_roots)  # scaffolding
try:  # scaffolding
    for s in [0.5, 0.7, -0.4]:  # scaffolding
        phi = phi_jit(jnp.array([s]), jnp.array([0.3 + 1.0j]))
    _report({"jit(phi_from_roots)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
