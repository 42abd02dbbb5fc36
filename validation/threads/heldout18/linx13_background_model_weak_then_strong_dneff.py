# source: https://github.com/cgiovanetti/LINX/issues/13
# expect: shape-churn at line 278
# runtime: COMPILES 2 CALLS 11
# why: the first call passes jnp.asarray(0.) (a weak-typed float) and the loop passes strongly typed float32 elements of a linspace, so the filter_jit-ed BackgroundModel.__call__ is traced and compiled twice.
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


# --- linx/special_funcs.py at 63996cd, up to and including Li (verbatim) ---
from functools import partial

import jax
from jax import lax
from jax import numpy as jnp 
from jax.scipy.special import zeta, gammaln, i0, i1, bernoulli
from jax.scipy.special import gamma as jax_gamma

euler_gamma = 0.57721566490153286061
zeta_3 = 1.202056903159594

# Number of terms for Li series. 
L = 60

# List of Bernoulli numbers B_n 
bernoulli_ary = bernoulli(L) 

def comb(N,k):
    """
    Combinatoric factor N! / (k! (N-k)!). 
    """
    return jnp.exp((gammaln(N+1) - gammaln(k+1) - gammaln(N-k+1) ))

def Bernoulli(n, x): 
    """
    The Bernoulli polynomial B_n(x), n < 60. See Wikipedia article. 
    """

    return lax.fori_loop(
        0, n+1, lambda i, val: val+bernoulli_ary[i] * comb(n,i) * x**(n-i), 0
    )

def gamma(x): 
    """
    Gamma function using the Lanczos approximation. Needed for imaginary
    arguments. 
    """
    def lanczos(x): 

        g = 7

        p_vals = jnp.array([
            0.99999999999980993,
            676.5203681218851,
            -1259.1392167224028,
            771.32342877765313,
            -176.61502916214059,
            12.507343278686905,
            -0.13857109526572012,
            9.9843695780195716e-6,
            1.5056327351493116e-7
        ])

        eps = 1e-06

        z = x
        z_fill = z - 1
        denom = z_fill + jnp.arange(1, len(p_vals))
        x_fill = p_vals[0] + jnp.sum(p_vals[1:] / denom)
        t = z_fill + g + 0.5

        result1 = (
            jnp.sqrt(2 * jnp.pi) * t ** (z_fill + 0.5) * jnp.exp(-t) * x_fill
        )
        result2 = jnp.where(
            jnp.abs(result1.imag) <= eps, result1.real, result1
        )
        return result2

    
    def reflect(x): 

        return jnp.pi / jnp.sin(jnp.pi * x) * lanczos(1. - x) 

    return lax.cond(x < 0.5, reflect, lanczos, x)


def Riemann_zeta(n): 
    """
    Riemann zeta function. Works for n > -60. Fixes results
    for negative arguments. 
    """

    return jnp.where(
        n > 0, zeta(n, 1), jnp.where(
            (n < 0) & (-n % 2 == 0), 0., 
            (-1.)**(-n) * bernoulli_ary[-n+1] / (-n + 1)
        )
    )

@partial(jax.jit, static_argnums=(0,))
def Li(n, z): 
    """
    Polylogarithm of order n and argument z. 
    """
    def _Li_z_small(z): 
    
        return lax.fori_loop(1, L, lambda j,val: val + z**j / j**n, 0)

    def _Li_z_intermed(z): 

        # Oddly enough, the fastest way to do this. 
        zeta_ary = jnp.concatenate((
            jnp.array([Riemann_zeta(n - m) for m in jnp.arange(n-1)]), 
            jnp.array([0.]), 
            jnp.array([Riemann_zeta(n - m) for m in jnp.arange(n, L)])
        ))

        zeta_series_term = jnp.sum(
            zeta_ary * jnp.concatenate(
                (jnp.array([1., jnp.log(z+0j)]), 
                jnp.log(z+0j)**jnp.arange(2, L))
            ) / jax_gamma(jnp.arange(L) + 1.)
        )

        H_n_m_1 = jnp.sum(1. / jnp.arange(1, n))
        harmonic_term = jnp.where(
            jnp.isclose(z - 1., 0), 0., 
            jnp.log(z+0j)**(n-1) / jax_gamma(n) * (
                H_n_m_1 - jnp.log(-jnp.log(
                    jnp.where(jnp.isclose(z - 1., 0), 2., z)+0j) + 0j
                )
            )
        )

        res = zeta_series_term + harmonic_term 

        return jnp.real(res)
    
    def _Li_z_large(z):

        recip_Li = lax.fori_loop(1, L, lambda j,val: val + (1/z)**j / j**n, 0)

        B_n = Bernoulli(n, jnp.log(z+0j)/(2 * jnp.pi * 1j))
 
        return jnp.real(
            - (-1)**n * recip_Li 
            - (2*jnp.pi*1j)**n / jax_gamma(n + 1) * B_n 
        )

    small_range = jnp.abs(z) <= 0.5

    intermed_range = (0.5 < jnp.abs(z)) & (jnp.abs(z) < 2)

    large_range = jnp.abs(z) > 2

    return jnp.where(
        small_range, _Li_z_small(jnp.where(small_range, z, 3.)), jnp.where(
            intermed_range, _Li_z_intermed(
                jnp.where(intermed_range, z, 3.)
            ), jnp.where(
                large_range, _Li_z_large(jnp.where(large_range, z, 3.)), 0.
            )
        ) 
    )


# --- linx/thermo.py at 63996cd: rho_massless_BE and n_massless_BE (verbatim) ---
import jax.numpy as jnp
import jax.lax as lax

def rho_massless_BE(T, mu, g):
    """
    Energy density of a massless particle with Bose-Einstein statistcs.

    Parameters
    ----------
    T : float
        Temperature of massless particle species in units of MeV.
    mu : float
        Chemical potential of massless particle species.
    g : float
        Degrees of freedom of massless particle species (1 for scalar, 
        2 for vector, etc.).

    Returns
    -------
    float
        Units of MeV^4. 
    """
    # epsilonbig = 1e12
    # epsilonsmall = 1e-12

    # T_non_negative = jnp.maximum(T, epsilonsmall) 
    # T_safer = lax.cond(
    #     T_non_negative < epsilonbig,
    #     lambda _: T_non_negative,
    #     lambda _: 0.0,
    #     None
    # )

    # T_safe_pow4 = T_safer**4

    # return g * 3 / jnp.pi**2 * T_safe_pow4 * Li(4, jnp.exp(mu/T_safer))
    
    return lax.cond(
        T > 0., 
        lambda T: g * 3 / jnp.pi**2 * Li(4, jnp.exp(mu/T)) * T**4, 
        lambda T: 0.,
        T
    )


def n_massless_BE(T, mu, g): 
    """
    Number density of a massless particle with Bose-Einstein statistcs.

    Parameters
    ----------
    T : float 
        Temperature of massless particle species in units of MeV.
    mu : float
        Chemical potential of massless particle species.
    g : float
        Degrees of freedom of massless particle species (1 for scalar, 
        2 for vector, etc.).

    Returns
    -------
    float
        Units of MeV^3. 
    """

    return lax.cond(
        T > 0., 
        lambda T: g / jnp.pi**2 * Li(3, jnp.exp(mu/T)) * T**3, 
        lambda T: 0., 
        T
    )



import equinox as eqx  # scaffolding


from tqdm import tqdm  # scaffolding: the issue uses tqdm without showing the import


class BackgroundModel(eqx.Module):  # scaffolding: linx/background.py's model, cut to a filter_jit __call__ using the thermo functions
    @eqx.filter_jit
    def __call__(self, Delt_Neff_init):  # scaffolding
        T = 1.0 + 0.01 * Delt_Neff_init  # scaffolding
        rho_g = rho_massless_BE(T, 0., 2.)  # scaffolding
        n_g = n_massless_BE(T, 0., 2.)  # scaffolding
        return (T, T, rho_g, n_g, rho_g, rho_g, Delt_Neff_init)  # scaffolding


thermo_model_DNeff = BackgroundModel()

(t_vec_ref, a_vec_ref, rho_g_vec, rho_nu_vec, rho_NP_vec, P_NP_vec, Neff_vec
) = thermo_model_DNeff(jnp.asarray(0.))

input_dNeff = jnp.linspace(-5, 5, 10,dtype=float) 
for dNeff in tqdm(input_dNeff):
    t_vec, a_vec, rho_g_vec, rho_nu_vec, rho_extra_vec, P_extra_vec, Neff_vec = thermo_model_DNeff(jnp.asarray(dNeff))

_report({"jit(__call__)"}, 11)  # scaffolding
