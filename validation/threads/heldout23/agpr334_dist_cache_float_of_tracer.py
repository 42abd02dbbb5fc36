# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/334
# expect: trace-time-error at line 182
# runtime: ERROR ConcretizationTypeError
# why: the distance cache stores float(result), and with H0 a traced free parameter under jax.jit the result is a tracer, so tracing the likelihood raises.
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


import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class LensingCosmology:  # scaffolding: base class of autogalaxy.cosmology, not needed here
    pass


class FlatLambdaCDM(LensingCosmology):
    def __init__(
        self,
        H0: float = 67.66,
        Om0: float = 0.30966,
        Tcmb0: float = 2.7255,
        Neff: float = 3.046,
        m_nu: float = 0.0,
        Ob0: float = 0.04897,
    ):
        """A JAX-compatible FlatLambdaCDM (docstring shortened)."""
        self.H0 = H0
        self.Om0 = Om0
        self.Tcmb0 = Tcmb0
        self.Neff = Neff
        self.m_nu = m_nu
        self.Ob0 = Ob0

        # Make ΛCDM a special case of wCDM
        self.w0 = -1.0

    @staticmethod
    def _simpson_1d(y, x, xp=np):
        """
        Composite Simpson's rule on a 1D grid.

        Requirements:
        - x is 1D, evenly spaced
        - len(x) is odd  (i.e. number of intervals is even)

        Works with numpy or jax.numpy passed as xp.
        """
        n = x.shape[0]
        if (n % 2) == 0:
            raise ValueError(
                "Simpson's rule requires an odd number of samples (even number of intervals)."
            )

        h = (x[-1] - x[0]) / (n - 1)

        # y0 + yN
        s = y[0] + y[-1]

        # 4 * sum of odd indices
        s = s + 4.0 * xp.sum(y[1:-1:2])

        # 2 * sum of even indices (excluding endpoints)
        s = s + 2.0 * xp.sum(y[2:-1:2])

        return (h / 3.0) * s

    def _m_nu_sum_eV(self, xp=np):
        m = xp.asarray(getattr(self, "m_nu", 0.0))
        if getattr(m, "ndim", 0) == 0:
            # scalar means per-species mass (astropy convention)
            n = int(np.floor(float(getattr(self, "Neff", 3.046))))
            return m * xp.asarray(float(n))
        return xp.sum(m)

    def angular_diameter_distance_kpc_z1z2(
        self,
        z1: float,
        z2: float,
        n_steps: int = 8193,  # odd by default
        xp=np,
    ):
        """
        D_A(z1,z2) in kpc for flat wCDM using Simpson's rule (docstring shortened).

        Results are cached keyed on (z1, z2, n_steps) to avoid redundant
        Simpson integrations for repeated redshift pairs.
        """
        cache = getattr(self, "_dist_cache", None)
        if cache is None:
            cache = {}
            self._dist_cache = cache
        key = (float(z1), float(z2), n_steps)
        if key in cache:
            return xp.asarray(cache[key])

        # Ensure odd number of samples for Simpson (safe: n_steps is a Python int)
        if (n_steps % 2) == 0:
            n_steps += 1

        z1a = xp.asarray(z1)
        z2a = xp.asarray(z2)
        same = z1a == z2a

        c_km_s = xp.asarray(299792.458)

        H0 = xp.asarray(self.H0)
        h = H0 / xp.asarray(100.0)

        Om0 = xp.asarray(self.Om0)
        w0 = xp.asarray(self.w0)

        # ---- photons ----
        Tcmb = xp.asarray(getattr(self, "Tcmb0", 0.0))
        Ogamma_h2 = xp.asarray(2.469e-5) * (Tcmb / xp.asarray(2.7255)) ** 4
        Ogamma0 = Ogamma_h2 / (h * h)

        # ---- massive neutrinos (approx matter-like today) ----
        m_nu_sum = self._m_nu_sum_eV(xp=xp)
        Onu_m_h2 = m_nu_sum / xp.asarray(93.14)
        Onu_m0 = Onu_m_h2 / (h * h)

        # ---- massless neutrino radiation via Neff (avoid double-counting) ----
        Neff = xp.asarray(getattr(self, "Neff", 0.0))

        m_nu = getattr(self, "m_nu", 0.0)
        m_arr = xp.asarray(m_nu)

        if getattr(m_arr, "ndim", 0) == 0:
            n_massive = xp.where(
                m_arr > xp.asarray(0.0), xp.asarray(1.0), xp.asarray(0.0)
            )
        else:
            n_massive = xp.sum(m_arr > xp.asarray(0.0))

        Neff_massless = xp.maximum(Neff - n_massive, xp.asarray(0.0))

        Onu_rad0 = Ogamma0 * xp.asarray(0.2271) * Neff_massless
        Or0 = Ogamma0 + Onu_rad0

        # ---- flatness: Omega_de ----
        Ode0 = xp.asarray(1.0) - Om0 - Or0 - Onu_m0

        def E_local(z):
            zp1 = xp.asarray(1.0) + z
            return xp.sqrt(
                (Om0 + Onu_m0) * zp1**3
                + Or0 * zp1**4
                + Ode0 * zp1 ** (xp.asarray(3.0) * (xp.asarray(1.0) + w0))
            )

        z_grid = xp.linspace(z1a, z2a, n_steps)
        integrand = xp.asarray(1.0) / E_local(z_grid)

        integral = self._simpson_1d(integrand, z_grid, xp=xp)

        Dc_Mpc = (c_km_s / H0) * integral
        Da_Mpc = Dc_Mpc / (xp.asarray(1.0) + z2a)
        Da_kpc = Da_Mpc * xp.asarray(1.0e3)

        result = xp.where(same, xp.asarray(0.0), Da_kpc)

        self._dist_cache[key] = float(result)

        return result


@jax.jit  # scaffolding: a jitted likelihood term with H0 as a free parameter, as in a cosmology fit
def lensing_distance(H0):  # scaffolding
    cosmo = FlatLambdaCDM(H0=H0)  # scaffolding
    return cosmo.angular_diameter_distance_kpc_z1z2(0.5, 1.0, xp=jnp)  # scaffolding


try:  # scaffolding
    for H0 in (67.0, 70.0, 73.0):  # scaffolding
        lensing_distance(jnp.asarray(H0))  # scaffolding
    _report({"jit(lensing_distance)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
