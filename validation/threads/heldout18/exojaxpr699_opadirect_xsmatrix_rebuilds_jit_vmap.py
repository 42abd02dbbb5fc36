# source: https://github.com/HajimeKawahara/exojax/pull/699
# expect: jit-in-loop-or-body at line 96
# runtime: COMPILES 9 CALLS 3
# why: OpaDirect.xsmatrix wraps line_strength, gamma_exomol and doppler_sigma in a fresh jit(vmap(...)) on every call, so three same-shape calls compile the three helpers three times each.
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


from typing import Tuple, Union, Literal  # lpf/api.py imports (kept)

import jax.numpy as jnp
import numpy as np
from jax import jit, vmap

Tref_original = 296.0  # scaffolding: exojax.utils.constants
hcperk = 1.4387773538277202  # scaffolding: exojax.utils.constants


# scaffolding: exojax.database.core.broadening / line_strength / lpf, as in the repo (exojax not installed)
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
def doppler_sigma(nu_lines, T, M):
    c3 = 3.0415595e-07
    return c3 * jnp.sqrt(T / M) * nu_lines


@jit
def gamma_natural(A):
    return 2.6544188e-12 * A


@jit
def xsmatrix_lpf(numatrix, sigmaDM, gammaLM, SijM):  # scaffolding: a Lorentzian stand-in for lpf.xsmatrix
    prof = gammaLM[:, :, None] / (numatrix[None, :, :] ** 2 + gammaLM[:, :, None] ** 2) / jnp.pi
    return jnp.sum(SijM[:, :, None] * prof, axis=1)


class _Mdb:  # scaffolding: a small ExoMol-like line database
    dbtype = "exomol"
    def __init__(self, n):
        rng = np.random.default_rng(0)
        self.nu_lines = np.linspace(4000.0, 4100.0, n)
        self.logsij0 = rng.normal(-50.0, 1.0, n)
        self.elower = rng.uniform(0.0, 3000.0, n)
        self.n_Texp = np.full(n, 0.5)
        self.alpha_ref = np.full(n, 0.07)
        self.A = np.full(n, 1.0e-2)
        self.molmass = 28.0
    def qr_interp(self, T, Tref):
        return (T / Tref) ** 1.5


class OpaDirect:
    def __init__(self, mdb, nu_grid):  # scaffolding: OpaCalc base and initspec.init_lpf cut
        self.mdb = mdb
        self.nu_grid = nu_grid
        self.opainfo = nu_grid[None, :] - mdb.nu_lines[:, None]

    def xsmatrix(self, Tarr: Union[np.ndarray, jnp.ndarray], Parr: Union[np.ndarray, jnp.ndarray]) -> jnp.ndarray:
        """Compute cross section matrix for temperature and pressure arrays."""
        # the method's local exojax imports are the scaffolding functions above
        numatrix = self.opainfo
        dbtype = self.mdb.dbtype
        
        # Vectorized line strength function (fixed typo)
        vmap_line_strength = jit(vmap(line_strength, (0, None, None, None, 0, None)))
        
        if dbtype == "exomol":  # hitran and kurucz/vald branches cut (scaffolding)
            vmapqt = vmap(self.mdb.qr_interp, (0, None))
            qt = vmapqt(Tarr, Tref_original)
            vmapexomol = jit(vmap(gamma_exomol, (0, 0, None, None)))
            gammaLMP = vmapexomol(Parr, Tarr, self.mdb.n_Texp, self.mdb.alpha_ref)
            gammaLMN = gamma_natural(self.mdb.A)
            gammaLM = gammaLMP + gammaLMN[None, :]
            SijM = vmap_line_strength(
                Tarr,
                self.mdb.logsij0,
                self.mdb.nu_lines,
                self.mdb.elower,
                qt,
                Tref_original,
            )
            sigmaDM = jit(vmap(doppler_sigma, (None, 0, None)))(
                self.mdb.nu_lines, Tarr, self.mdb.molmass
            )
        else:
            raise ValueError(
                f"Unsupported database type for xsmatrix: '{dbtype}'. "
                "Supported types: hitran, exomol, kurucz, vald"
            )

        return xsmatrix_lpf(numatrix, sigmaDM, gammaLM, SijM)


opa = OpaDirect(_Mdb(50), np.linspace(4000.0, 4100.0, 200))  # scaffolding
Parr = np.logspace(-4, 2, 20)  # scaffolding
for k in range(3):  # scaffolding: a retrieval loop evaluating the same-shape layers
    opa.xsmatrix(np.full(20, 1000.0 + 100.0 * k), Parr)  # scaffolding
_report({"jit(line_strength)", "jit(gamma_exomol)", "jit(doppler_sigma)"}, 3)  # scaffolding
