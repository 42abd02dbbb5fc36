# source: https://github.com/HajimeKawahara/exojax/pull/700
# expect: jit-in-loop-or-body at line 70
# runtime: COMPILES 6 CALLS 3
# why: modit.exomol, called by OpaModit.xsmatrix for every layer set, builds new jit(vmap(line_strength)) and jit(vmap(gamma_exomol)) wrappers each call, so three same-shape calls compile both helpers three times.
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


import warnings  # modit.py imports (kept; exojax ones replaced by scaffolding below)
import numpy as np
import jax.numpy as jnp
from jax import jit, vmap

Tref_original = 296.0  # scaffolding: exojax.utils.constants
hcperk = 1.4387773538277202  # scaffolding: exojax.utils.constants


# scaffolding: exojax.spec helpers as in the repo (exojax not installed)
def gamma_exomol(P, T, n_air, alpha_ref):
    gamma = alpha_ref * P * (Tref_original / T) ** n_air
    return gamma


def line_strength(T, logsij0, nu_lines, elower, qr, Tref):
    expow = logsij0 - hcperk * (elower / T - elower / Tref)
    fac = (1.0 - jnp.exp(-hcperk * nu_lines / T)) / (
        1.0 - jnp.exp(-hcperk * nu_lines / Tref)
    )
    return jnp.exp(expow) / qr * fac


@jit
def gamma_natural(A):
    return 2.6544188e-12 * A


@jit
def normalized_doppler_sigma(T, M, R):
    c3 = 3.0415595e-07
    return c3 * jnp.sqrt(T / M) * R


def exomol(mdb, Tarr, Parr, R, molmass):
    """compute molecular line information required for MODIT using Exomol mdb.

    Returns:
        line intensity matrix,
        normalized gammaL matrix,
        normalized sigmaD matrix
    """
    qt = vmap(mdb.qr_interp, (0, None))(Tarr, Tref_original)
    SijM = jit(vmap(line_strength, (0, None, None, None, 0, None)))(
        Tarr, mdb.logsij0, mdb.dev_nu_lines, mdb.elower, qt, Tref_original
    )
    gammaLMP = jit(vmap(gamma_exomol, (0, 0, None, None)))(
        Parr, Tarr, mdb.n_Texp, mdb.alpha_ref
    )
    gammaLMN = gamma_natural(mdb.A)
    gammaLM = gammaLMP + gammaLMN[None, :]
    ngammaLM = gammaLM / (mdb.dev_nu_lines / R)
    nsigmaDl = normalized_doppler_sigma(Tarr, molmass, R)[:, jnp.newaxis]
    return SijM, ngammaLM, nsigmaDl


class _Mdb:  # scaffolding: a small ExoMol-like line database
    dbtype = "exomol"
    def __init__(self, n):
        rng = np.random.default_rng(0)
        self.dev_nu_lines = jnp.asarray(np.linspace(4000.0, 4100.0, n))
        self.logsij0 = rng.normal(-50.0, 1.0, n)
        self.elower = rng.uniform(0.0, 3000.0, n)
        self.n_Texp = np.full(n, 0.5)
        self.alpha_ref = np.full(n, 0.07)
        self.A = np.full(n, 1.0e-2)
        self.molmass = 28.0
    def qr_interp(self, T, Tref):
        return (T / Tref) ** 1.5


mdb = _Mdb(50)  # scaffolding
Parr = np.logspace(-4, 2, 20)  # scaffolding
for k in range(3):  # scaffolding: OpaModit.xsmatrix calls exomol(self.mdb, Tarr, Parr, R, self.mdb.molmass) each time
    exomol(mdb, np.full(20, 1000.0 + 100.0 * k), Parr, 100000.0, mdb.molmass)  # scaffolding
_report({"jit(line_strength)", "jit(gamma_exomol)"}, 3)  # scaffolding
