# source: https://github.com/HajimeKawahara/exojax/commit/3c802ece68f0d2187784f424d02849f15685e8e3
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: rtrun_emis_pureabs_ibased computes its Gaussian quadrature from the nstream argument with scipy, but ArtEmisPure.run passes self.nstream as a Python int, so the user's jitted forward model traces it as a constant and compiles once for three temperature profiles.
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


import jax.numpy as jnp
from jax import jit
from jax.lax import scan


def rtrun_emis_pureabs_ibased(dtau, source_matrix, nstream=4):
    """Radiative Transfer for emission spectrum using intensity-based n-stream pure absorption with no surface
    Args:
        dtau (2D array): optical depth matrix, dtau  (N_layer, N_nus)
        source_matrix (2D array): source matrix (N_layer, N_nus)
        nstream (int): the number of stream (should be even number larger than 2, such as 2,4,6...)

    Returns:
        flux in the unit of [erg/cm2/s/cm-1] if using piBarr as a source function.
    """

    Nnus = jnp.shape(dtau)[1]
    mus, weights = initialize_gaussian_quadrature(nstream)
    tau = jnp.cumsum(dtau, axis=0)    

    #The following scan part is equivalent to this for-loop
    #spec = jnp.zeros(Nnus)
    #for i, mu in enumerate(mus):
    #    dtrans = - jnp.diff(jnp.exp(-tau/mu), prepend=1.0, axis=0)
    #    spec = spec + weights[i]*2.0*mu*jnp.sum(source_matrix*dtrans, axis=0)

    #scan part
    muws = [mus, weights]
    def f(carry_fmu, muw):
        mu, w = muw
        dtrans = - jnp.diff(jnp.exp(-tau/mu), prepend=1.0, axis=0)    
        carry_fmu = carry_fmu + 2.0*mu*w*jnp.sum(source_matrix*dtrans, axis=0)
        return carry_fmu, None
    spec, _ = scan(f, jnp.zeros(Nnus), muws)

    return spec


def initialize_gaussian_quadrature(nstream):
    from scipy.special import roots_legendre
    if nstream % 2 == 0:
        norder = int(nstream/2)
    else:
        raise ValueError("nstream should be even number larger than 2.")
    mus, weights = roots_legendre(norder)

    #correction because integration should be between 0 to 1, but roots_legendre uses -1 to 1.
    mus = 0.5*(mus + 1.0) 
    weights = 0.5*weights
    print("Gaussian Quadrature Parameters: ")
    print("mu = ", mus)
    print("weight =", weights)
    
    return mus, weights


def piBarr(Tarr, nu_grid):  # scaffolding: exojax.spec.planck.piBarr
    hcperk = 1.4387773538277202
    return 3.741771790075259e-05 * nu_grid ** 3 / (jnp.exp(hcperk * nu_grid / Tarr[:, None]) - 1.0)


class ArtEmisPure:  # scaffolding: exojax.spec.atmrt.ArtEmisPure cut down to the ibased solver
    def __init__(self, nu_grid, nstream=8):
        self.nu_grid = nu_grid
        self.rtsolver = "ibased"
        self.rtsolver_dict = {"ibased": rtrun_emis_pureabs_ibased}
        self.nstream = nstream

    def run(self, dtau, temperature, nu_grid=None):
        if self.nu_grid is not None:
            sourcef = piBarr(temperature, self.nu_grid)
        elif nu_grid is not None:
            sourcef = piBarr(temperature, nu_grid)
        else:
            raise ValueError("the wavenumber grid is not given.")

        rtfunc = self.rtsolver_dict[self.rtsolver]
        if self.rtsolver == "ibased":
            return rtfunc(dtau, sourcef, self.nstream)


nu_grid = jnp.linspace(4000.0, 4500.0, 256)  # scaffolding
art = ArtEmisPure(nu_grid)  # scaffolding
log_pressure = jnp.linspace(-4.0, 2.0, 50)  # scaffolding


@jit  # scaffolding: a user's jitted emission-spectrum model
def fspec(T0, kappa):  # scaffolding
    temperature = T0 * (10.0 ** log_pressure) ** 0.1  # scaffolding: power-law T-P profile
    dtau = kappa * jnp.diff(10.0 ** log_pressure, prepend=0.0)[:, None] * jnp.ones_like(nu_grid)  # scaffolding
    return art.run(dtau, temperature)  # scaffolding


for T0 in [1200.0, 1300.0, 1400.0]:  # scaffolding
    fspec(T0, 0.01).block_until_ready()  # scaffolding
_report({"jit(fspec)"}, 3)  # scaffolding
