# source: https://github.com/nuclear-multimessenger-astronomy/jester/commit/6fdbc9703c75285c61c391806572e528ba36341d
# expect: changing-static at line 350
# runtime: COMPILES 48 CALLS 4
# why: Every MetaModel_EOS_model method is @partial(jax.jit, static_argnums=(0,)), so self is the static key; each EOS draw builds a new model object (hashed by id), and all 12 methods used compile again per draw (48 compiles for 4 draws).

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
import os
import jax
import jax.numpy as jnp
from jax.scipy.special import factorial
from jaxtyping import Array, Float, Int
from functools import partial

import types  # scaffolding
# scaffolding: joseTOV.utils, the constants and helpers eos.py uses (values and bodies copied)
utils = types.SimpleNamespace()  # scaffolding
utils.hbarc = 197.3269804593025  # scaffolding
utils.hbar = utils.hbarc  # scaffolding
utils.m_p, utils.m_n = 938.2720881604904, 939.5654205203889  # scaffolding
utils.m = (utils.m_p + utils.m_n) / 2.0  # scaffolding
utils.m_e = 0.510998  # scaffolding
utils.fm_inv3_to_geometric = 1.0 / (1e-15) ** 3  # scaffolding
utils.MeV_fm_inv3_to_geometric = (1e6 * 1.602176634e-19 / (1e-15) ** 3) * (6.6743e-11 / 299792458.0**4)  # scaffolding


def _cumtrapz(y, x):  # scaffolding: joseTOV.utils.cumtrapz
    dx = jnp.diff(x)  # scaffolding
    res = jnp.cumsum(dx * (y[1::] + y[:-1:]) / 2.0)  # scaffolding
    return jnp.concatenate((jnp.array([1e-30]), res))  # scaffolding


@jax.vmap  # scaffolding: joseTOV.utils.cubic_root_for_proton_fraction, body copied
def _cubic_root_for_proton_fraction(coefficients):  # scaffolding
    a, b, c, d = coefficients  # scaffolding
    f = ((3.0 * c / a) - ((b ** 2) / (a ** 2))) / 3.0  # scaffolding
    g = (((2.0 * (b ** 3)) / (a ** 3)) - ((9.0 * b * c) / (a ** 2)) + (27.0 * d / a)) / 27.0  # scaffolding
    h = g ** 2 / 4.0 + f ** 3 / 27.0  # scaffolding
    R = -(g / 2.0) + jnp.sqrt(h)  # scaffolding
    S = jnp.cbrt(R)  # scaffolding
    T = -(g / 2.0) - jnp.sqrt(h)  # scaffolding
    U = jnp.cbrt(T)  # scaffolding
    x1 = (S + U) - (b / (3.0 * a))  # scaffolding
    x2 = -(S + U) / 2 - (b / (3.0 * a)) + (S - U) * jnp.sqrt(3.0) * 0.5j  # scaffolding
    x3 = -(S + U) / 2 - (b / (3.0 * a)) - (S - U) * jnp.sqrt(3.0) * 0.5j  # scaffolding
    return jnp.array([x1, x2, x3])  # scaffolding


utils.cumtrapz = _cumtrapz  # scaffolding
utils.cubic_root_for_proton_fraction = _cubic_root_for_proton_fraction  # scaffolding
utils.cubic_spline = lambda xq, xp, fp: jnp.interp(xq, xp, fp)  # scaffolding: was interpax cubic interp1d (not installed)

##############
### CRUSTS ###
##############

DEFAULT_DIR = os.path.join(os.path.dirname(__file__))
CRUST_DIR = f"{DEFAULT_DIR}/crust"

def load_crust(name: str) -> tuple[Array, Array, Array]:
    """
    Load a crust file from the default directory.

    Args:
        name (str): Name of the crust to load, or a filename if a file outside of jose is supplied.

    Returns:
        tuple[Array, Array, Array]: Number densities [fm^-3], pressures [MeV / fm^-3], and energy densities [MeV / fm^-3] of the crust.
    """
    
    n = jnp.logspace(-8, jnp.log10(0.08), 60)  # scaffolding: the BPS.npz crust table is a data file; smooth stand-in
    p = 0.5 * (n / 0.08) ** 1.5  # scaffolding
    e = n * 938.9 + p  # scaffolding
    return n, p, e  # scaffolding

class Interpolate_EOS_model(object):
    """
    Base class to interpolate EOS data. 
    """
    def __init__(
        self,
        n: Float[Array, "n_points"],
        p: Float[Array, "n_points"],
        e: Float[Array, "n_points"],
    ):
        """
        Initialize the EOS model with the provided data and compute auxiliary data.

        Args:
            n (Float[Array, n_points]): Number densities. Expected units are n[fm^-3]
            p (Float[Array, n_points]): Pressure values. Expected units are p[MeV / fm^3]
            e (Float[Array, n_points]): Energy densities. Expected units are e[MeV / fm^3]
        """
        
        # Save the provided data as attributes, make conversions
        self.n = jnp.array(n * utils.fm_inv3_to_geometric)
        self.p = jnp.array(p * utils.MeV_fm_inv3_to_geometric)
        self.e = jnp.array(e * utils.MeV_fm_inv3_to_geometric)
        
        # Pre-calculate quantities
        self.logn = jnp.log(self.n)
        self.logp = jnp.log(self.p)
        self.h = utils.cumtrapz(self.p / (self.e + self.p), jnp.log(self.p)) # enthalpy
        self.loge = jnp.log(self.e)
        self.logh = jnp.log(self.h)
        
        # TODO: might be better to use jnp.gradient?
        dloge_dlogp = jnp.diff(self.loge) / jnp.diff(self.logp)
        dloge_dlogp = jnp.concatenate(
            (
                jnp.array(
                    [
                        dloge_dlogp.at[0].get(),
                    ]
                ),
                dloge_dlogp,
            )
        )
        self.dloge_dlogp = dloge_dlogp

    @partial(jax.jit, static_argnums=(0,))
    def energy_density_from_pseudo_enthalpy(self, h: Float):
        loge_of_h = jnp.interp(jnp.log(h), self.logh, self.loge)
        return jnp.exp(loge_of_h)

    @partial(jax.jit, static_argnums=(0,))
    def pressure_from_pseudo_enthalpy(self, h: Float):
        logp_of_h = jnp.interp(jnp.log(h), self.logh, self.logp)
        return jnp.exp(logp_of_h)

    @partial(jax.jit, static_argnums=(0,))
    def dloge_dlogp_from_pseudo_enthalpy(self, h: Float):
        return jnp.interp(h, self.h, self.dloge_dlogp)

    @partial(jax.jit, static_argnums=(0,))
    def pseudo_enthalpy_from_pressure(self, p: Float):
        logh_of_p = jnp.interp(jnp.log(p), self.logp, self.logh)
        return jnp.exp(logh_of_p)

    @partial(jax.jit, static_argnums=(0,))
    def pressure_from_number_density(self, n: Float):
        logp_of_n = jnp.interp(n, self.n, self.logp)
        return jnp.exp(logp_of_n)


class MetaModel_EOS_model(Interpolate_EOS_model):
    """
    MetaModel_EOS_model is a class to interpolate EOS data with a meta-model.

    Args:
        Interpolate_EOS_model (object): Base class of interpolation EOS data.
    """
    
    # TODO: decide whether these have to be attributes of Interpolate_EOS_model or MetaModel_EOS_model
    cs2: Array
    mu: Array
    
    def __init__(
        self,
        # Metamodel parameters
        NEP_dict: dict,
        kappas: tuple[Float, Float, Float, Float, Float, Float] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        v_nq: list[float] = [0.0, 0.0, 0.0, 0.0, 0.0],
        b_sat: Float = 17.0,
        b_sym: Float = 25.0,
        # density parameters
        nsat: Float = 0.16,
        nmin_nsat: Float = 0.1,
        nmax_nsat: Float = 12,
        ndat: Int = 200,
        # crust parameters
        crust: bool = "BPS",
        max_n_crust_nsat: Float = 0.5,
        ndat_spline: Int = 10
    ):
        """
        Initialize the MetaModel_EOS_model with the provided coefficients and compute auxiliary data.
        
        TODO: add documentation
        """
        
        # Save given attributes
        self.nsat = nsat
        self.v_nq = jnp.array(v_nq)
        self.b_sat = b_sat
        self.b_sym = b_sym
        self.N = 4 # TODO: this is fixed in the metamodeling papers, but we might want to extend this in the future
        
        # Set all the NEPs for the metamodel
        self.NEP_dict = NEP_dict
        
        self.E_sat = NEP_dict.get("E_sat", 0.0)
        self.K_sat = NEP_dict.get("K_sat", 0.0)
        self.Q_sat = NEP_dict.get("Q_sat", 0.0)
        self.Z_sat = NEP_dict.get("Z_sat", 0.0)

        self.E_sym = NEP_dict.get("E_sym", 0.0)
        self.L_sym = NEP_dict.get("L_sym", 0.0)
        self.K_sym = NEP_dict.get("K_sym", 0.0)
        self.Q_sym = NEP_dict.get("Q_sym", 0.0)
        self.Z_sym = NEP_dict.get("Z_sym", 0.0)

        # TODO: perhaps a bit cleaner but a bit less clear
        # for key in ["E_sat", "K_sat", "Q_sat", "Z_sat", "E_sym", "L_sym", "K_sym", "Q_sym", "Z_sym"]:
        #     setattr(self, key, NEP_dict.get(key, 0.0))
        
        # TODO: clean up, not used so much?
        # Add the first derivative coefficient in Esat to make it work with jax.numpy.polyval
        coefficient_sat = jnp.array([self.E_sat,        0.0, self.K_sat, self.Q_sat, self.Z_sat])
        coefficient_sym = jnp.array([self.E_sym, self.L_sym, self.K_sym, self.Q_sym, self.Z_sym])
        
        # Get the coefficents index array and get coefficients
        index_sat = jnp.arange(len(coefficient_sat))
        index_sym = jnp.arange(len(coefficient_sym))

        self.coefficient_sat = coefficient_sat / factorial(index_sat)
        self.coefficient_sym = coefficient_sym / factorial(index_sym)
        
        # Preprocess the kappas
        assert len(kappas) == 6, "kappas must be a tuple of 6 values: kappa_sat, kappa_sat2, kappa_sat3, kappa_NM, kappa_NM2, kappa_NM3"
        self.kappa_sat, self.kappa_sat2, self.kappa_sat3, self.kappa_NM, self.kappa_NM2, self.kappa_NM3 = kappas
        self.kappa_sym = self.kappa_NM - self.kappa_sat
        self.kappa_sym2 = self.kappa_NM2 - self.kappa_sat2
        self.kappa_sym3 = self.kappa_NM3 - self.kappa_sat3
        
        # t_sat or TFGsat is the kinetic energy per nucleons in SM and at saturation, see just after eq (13) in the margueron paper
        self.t_sat = 3 * utils.hbar ** 2 / (10 * utils.m) * (3 * jnp.pi ** 2 * self.nsat / 2) ** (2/3)
        
        # Potential energy 
        # v_sat is defined in equations (22) - (26) in the Margueron et al. paper
        # TODO: there are more terms here, perhaps check the other reference that Rahul shared?
        v_sat_0 = self.E_sat -     self.t_sat * ( 1 +   self.kappa_sat +   self.kappa_sat2 +     self.kappa_sat3)
        v_sat_1 =            -     self.t_sat * ( 2 + 5*self.kappa_sat + 8 * self.kappa_sat2 + 11* self.kappa_sat3)
        v_sat_2 = self.K_sat - 2 * self.t_sat * (-1 + 5*self.kappa_sat + 20*self.kappa_sat2 + 44* self.kappa_sat3)
        v_sat_3 = self.Q_sat - 2 * self.t_sat * ( 4 - 5*self.kappa_sat + 40*self.kappa_sat2 + 220* self.kappa_sat3)
        v_sat_4 = self.Z_sat - 8 * self.t_sat * (-7 + 5*self.kappa_sat - 10*self.kappa_sat2 + 110* self.kappa_sat3) 
        
        self.v_sat = jnp.array([v_sat_0, v_sat_1, v_sat_2, v_sat_3, v_sat_4])
        
        # v_sym2 is defined in equations (27) to (31) in the Margueron et al. paper
        v_sym2_0 = self.E_sym -     self.t_sat * ( 2**(2/3)*( 1+  self.kappa_NM+   self.kappa_NM2+    self.kappa_NM3) - ( 1+  self.kappa_sat+   self.kappa_sat2+   self.kappa_sat3)  ) - v_nq[0]
        v_sym2_1 = self.L_sym -     self.t_sat * ( 2**(2/3)*( 2+5*self.kappa_NM+8* self.kappa_NM2+ 11*self.kappa_NM3) - ( 2+5*self.kappa_sat+8* self.kappa_sat2+11*self.kappa_sat3)  ) - v_nq[1]
        v_sym2_2 = self.K_sym - 2 * self.t_sat * ( 2**(2/3)*(-1+5*self.kappa_NM+20*self.kappa_NM2+ 44*self.kappa_NM3) - (-1+5*self.kappa_sat+20*self.kappa_sat2+44*self.kappa_sat3)  ) - v_nq[2]
        v_sym2_3 = self.Q_sym - 2 * self.t_sat * ( 2**(2/3)*( 4-5*self.kappa_NM+40*self.kappa_NM2+ 220*self.kappa_NM3) - ( 4-5*self.kappa_sat+40*self.kappa_sat2+220*self.kappa_sat3) ) - v_nq[3]
        v_sym2_4 = self.Z_sym - 8 * self.t_sat * ( 2**(2/3)*(-7+5*self.kappa_NM-10*self.kappa_NM2+ 110*self.kappa_NM3) - (-7+5*self.kappa_sat-10*self.kappa_sat2+110*self.kappa_sat3) ) - v_nq[4]
        
        self.v_sym2 = jnp.array([v_sym2_0, v_sym2_1, v_sym2_2, v_sym2_3, v_sym2_4])
        
        # Load and preprocess the crust
        ns_crust, ps_crust, es_crust = load_crust(crust)
        
        max_n_crust = max_n_crust_nsat * nsat
        mask = ns_crust <= max_n_crust
        ns_crust, ps_crust, es_crust = ns_crust[mask], ps_crust[mask], es_crust[mask]
        
        # FIXME: remove this once we discussed about this with Rahul
        mu_lowest = (es_crust[0] + ps_crust[0]) / ns_crust[0]
        # mu_lowest = 930.1193490245807
        
        cs2_crust = jnp.gradient(ps_crust, es_crust)
        
        # Make sure the metamodel starts above the crust
        max_n_crust = ns_crust[-1]
        nmin = nmin_nsat * self.nsat
        nmin = jnp.max(jnp.array([nmin, max_n_crust]))
        self.nmin = nmin
        
        # Create the density array
        self.nmax = nmax_nsat * self.nsat
        self.ndat = ndat
        
        # We first set the metamodel n array to self.n, to compute all auxiliary quantities
        n_metamodel = jnp.linspace(self.nmin, self.nmax, ndat, endpoint = False)
        
        # Auxiliaries first
        x = self.compute_x(n_metamodel)
        proton_fraction = self.compute_proton_fraction(n_metamodel)
        delta = 1 - 2 * proton_fraction
        
        f_1 = self.compute_f_1(delta)
        f_star = self.compute_f_star(delta)
        f_star2 = self.compute_f_star2(delta)
        f_star3 = self.compute_f_star3(delta)
        v = self.compute_v(delta)
        b = self.compute_b(delta)
        
        # Other quantities
        p_metamodel = self.compute_pressure(x, f_1, f_star, f_star2, f_star3, b, v)
        e_metamodel = self.compute_energy(x, f_1, f_star, f_star2, f_star3, b, v)
        
        # Get cs2 for the metamodel
        cs2_metamodel = self.compute_cs2(n_metamodel, p_metamodel, e_metamodel, x, delta, f_1, f_star, f_star2, f_star3, b, v)
        
        # Spline for speed of sound for the connection region
        ns_spline = jnp.append(ns_crust, n_metamodel)
        cs2_spline = jnp.append(cs2_crust, cs2_metamodel)
        
        n_connection = jnp.linspace(max_n_crust + 1e-5, self.nmin, ndat_spline, endpoint = False)
        cs2_connection = utils.cubic_spline(n_connection, ns_spline, cs2_spline)
        cs2_connection = jnp.clip(cs2_connection, 1e-5, 1.0)
        
        # Concatenate the arrays
        n = jnp.concatenate([ns_crust, n_connection, n_metamodel])
        cs2 = jnp.concatenate([cs2_crust, cs2_connection, cs2_metamodel])
        
        # Compute pressure and energy from chemical potential and initialize the parent class with it
        log_mu = utils.cumtrapz(cs2, jnp.log(n)) + jnp.log(mu_lowest)
        mu = jnp.exp(log_mu)
        p = utils.cumtrapz(cs2 * mu, n) + ps_crust[0]
        e = mu * n - p
        
        self.cs2 = cs2
        self.mu = mu
        
        super().__init__(n, p, e)
        
        
    #################
    ### AUXILIARY ###
    #################
        
    def u(self,
          x: Array,
          b: Array,
          alpha: Int):
        # TODO: documentation
        return 1 - ((-3 * x) ** (self.N + 1 - alpha) * jnp.exp(- b * (1 + 3 * x)))
        
    @partial(jax.jit, static_argnums=(0,))
    def compute_x(self,
                  n: Array):
        return (n - self.nsat) / (3 * self.nsat)
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_b(self,
                  delta: Array):
        return self.b_sat + self.b_sym * delta ** 2
        
    @partial(jax.jit, static_argnums=(0,))
    def compute_f_1(self,
                    delta: Array):
        return (1 + delta) ** (5/3) + (1 - delta) ** (5/3)
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_f_star(self,
                       delta: Array):
        return (self.kappa_sat + self.kappa_sym * delta) * (1 + delta) ** (5/3) + (self.kappa_sat - self.kappa_sym * delta) * (1 - delta) ** (5/3)
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_f_star2(self,
                        delta: Array):
        return (self.kappa_sat2 + self.kappa_sym2 * delta) * (1 + delta) ** (5/3) + (self.kappa_sat2 - self.kappa_sym2 * delta) * (1 - delta) ** (5/3)
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_f_star3(self,
                        delta: Array):
        return (self.kappa_sat3 + self.kappa_sym3 * delta) * (1 + delta) ** (5/3) + (self.kappa_sat3 - self.kappa_sym3 * delta) * (1 - delta) ** (5/3)
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_v(self,
                  delta: Array) -> Array:
        return jnp.array([self.v_sat[alpha] + self.v_sym2[alpha] * delta ** 2 + self.v_nq[alpha] * delta ** 4 for alpha in range(self.N + 1)])
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_energy(self,
                       x: Array,
                       f_1: Array,
                       f_star: Array,
                       f_star2: Array,
                       f_star3: Array,
                       b: Array,
                       v: Array) -> Array:
        
        prefac = self.t_sat / 2 * (1 + 3 * x) ** (2/3)
        linear = (1 + 3 * x) * f_star
        quadratic = (1 + 3 * x) ** 2 * f_star2
        cubic = (1 + 3 * x) ** 3 * f_star3
        
        kinetic_energy = prefac * (f_1 + linear + quadratic + cubic)
        
        # Potential energy
        # TODO: a bit cumbersome, find another way, jax tree map?
        potential_energy = 0
        for alpha in range(5):
            u = self.u(x, b, alpha)
            potential_energy += v.at[alpha].get() / (factorial(alpha)) * x ** alpha * u
        
        return kinetic_energy + potential_energy
    
    @partial(jax.jit, static_argnums=(0,))
    def esym(self,
             x: Array):
        # TODO: change this to be self-consistent: see Rahul's approach for that.
        return jnp.polyval(self.coefficient_sym[::-1], x)
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_pressure(self,
                         x: Array,
                         f_1: Array,
                         f_star: Array,
                         f_star2: Array,
                         f_star3: Array,
                         b: Array,
                         v: Array) -> Array:
        
        # TODO: currently only for ELFc!
        p_kin = 1/3 * self.nsat * self.t_sat * (1 + 3 * x) ** (5/3) *\
            (f_1 + 5/2 * (1 + 3 * x) * f_star + 4 * (1 + 3 * x) ** 2 * f_star2 \
             + 11/2 * (1 + 3 * x) ** 3 * f_star3)
    
        # TODO: cumbersome with jnp.array, find another way
        p_pot = 0
        for alpha in range(1, 5):
            u = self.u(x, b, alpha)
            fac1 = alpha * u
            fac2 = (self.N + 1 - alpha - 3 * b * x) * (u - 1)
            p_pot += v.at[alpha].get() / (factorial(alpha)) * x ** (alpha - 1) * (fac1 + fac2)
            
        p_pot = p_pot - v.at[0].get() * (-3) ** (self.N + 1) * x ** self.N * (self.N + 1 - 3 * b * x) * jnp.exp(- b * (1 + 3 * x)) 
        p_pot = p_pot * (1/3) * self.nsat * (1 + 3 * x) ** 2
        
        return p_pot + p_kin
    
    @partial(jax.jit, static_argnums=(0,))
    def compute_cs2(self,
                    n: Array,
                    p: Array,
                    e: Array,
                    x: Array,
                    delta: Array,
                    f_1: Array,
                    f_star: Array,
                    f_star2: Array,
                    f_star3: Array,
                    b: Array,
                    v: Array):
        
        ### Compute incompressibility
        
        # Kinetic part
        K_kin = self.t_sat * (1 + 3 * x) ** (2/3) *\
            (-f_1 + 5 * (1 + 3 * x) * f_star + 20 * (1 + 3 * x) ** 2 * f_star2 \
             + 44 * (1 + 3 * x) ** 3 * f_star3)

        # Potential part
        K_pot = 0
        for alpha in range(2, self.N + 1):
            u = 1 -  ( (-3 * x) ** (self.N + 1 - alpha) * jnp.exp(- b * (1 + 3 * x)))
            x_up = (self.N + 1 - alpha - 3 * b * x) * (u - 1)
            x2_upp = (-(self.N + 1 - alpha) * (self.N - alpha) + 6 * b * x * (self.N + 1 - alpha) - 9 * x ** 2 * b ** 2) * (1 - u)
            
            K_pot = K_pot + v.at[alpha].get() / (factorial(alpha)) * x ** (alpha - 2) \
                * (alpha * (alpha - 1) * u + 2 * alpha * x_up + x2_upp)
                
        K_pot += v.at[0].get() * (-(self.N + 1) * (self.N) + 6 * b * x * (self.N + 1) - 9 * x ** 2 * b ** 2) *((-3) ** (self.N + 1) * x ** (self.N - 1) * jnp.exp(- b * (1 + 3 * x)))
        K_pot += 2 * v.at[1].get() * (self.N - 3 * b * x) * (-(-3) ** (self.N) * x ** (self.N - 1) * jnp.exp(- b * (1 + 3 * x)) )
        K_pot += v.at[1].get() * (-(self.N) * (self.N - 1) + 6 * b * x * (self.N) - 9 * x ** 2 * b ** 2) * ((-3)** (self.N) * x ** (self.N - 1) * jnp.exp(- b * (1 + 3 * x)))
        K_pot *= (1 + 3 * x) ** 2
        
        K = K_kin + K_pot + 18 / n * p
        
        # For electron
        
        K_Fb = (3. * jnp.pi**2 /2. * n) ** (1./3.) * utils.hbarc
        K_Fe = K_Fb * (1. - delta) ** (1./3.)  
        C = utils.m_e ** 4 / (8. * jnp.pi ** 2) / utils.hbarc ** 3
        x = K_Fe / utils.m_e
        f = x * (1 + 2 * x ** 2) * jnp.sqrt(1 + x ** 2) - jnp.arcsinh(x)
        
        e_electron = C*f
        p_electron = - e_electron + 8. / 3. * C * x ** 3 * jnp.sqrt(1 + x ** 2)
        K_electron = 8 * C / n * x ** 3 * (3 + 4 * x ** 2) / (jnp.sqrt(1 + x ** 2)) - 9 / n * (e_electron + p_electron)
        
        # Sum together:
        K_tot = K + K_electron
        
        # Finally, get cs2:
        chi = K_tot/9. 
        
        total_energy_density = (e + utils.m) * n + e_electron
        total_pressure = p + p_electron
        h_tot = (total_energy_density + total_pressure) / n
        
        cs2 = chi/h_tot
        
        return cs2
    
    def compute_proton_fraction(self,
                                n: Array) -> Float[Array, "n_points"]:
        """
        Computes the proton fraction for a given number density.

        Args:
            n (Float[Array, "n_points"]): Number density in fm^-3.

        Returns:
            Float[Array, "n_points"]: Proton fraction as a function of the number density.
        """
        # chemical potential of electron
        # mu_e = hbarc * pow(3 * pi**2 * x * n, 1. / 3.)
        #      = hbarc * pow(3 * pi**2 * n, 1. / 3.) * y (y = x**1./3.)
        # mu_p - mu_n = dEdx
        #             = -4 * Esym * (1. - 2. * x)
        #             = -4 * Esym + 8 * Esym * y**3
        # at beta equilibrium, the polynominal is given by
        # mu_e(y) + dEdx(y) - (m_n - m_p) = 0
        # p_0 = -4 * Esym - (m_n - m_p)
        # p_1 = hbarc * pow(3 * pi**2 * n, 1. / 3.)
        # p_2 = 0
        # p_3 = 8 * Esym
        # TODO: change this
        Esym = self.esym(n)
        
        a = 8.0 * Esym
        b = jnp.zeros(shape=n.shape)
        c = utils.hbarc * jnp.power(3.0 * jnp.pi**2 * n, 1.0 / 3.0)
        d = -4.0 * Esym - (utils.m_n - utils.m_p)
        
        coeffs = jnp.array(
            [
                a,
                b,
                c,
                d,
            ]
        ).T
        ys = utils.cubic_root_for_proton_fraction(coeffs)
        physical_ys = jnp.where(
            (ys.imag == 0.0) * (ys.real >= 0.0) * (ys.real <= 1.0),
            ys.real,
            jnp.zeros_like(ys.real),
        ).sum(axis=1)
        proton_fraction = jnp.power(physical_ys, 3)
        return proton_fraction


# --- usage: EOS for a few draws of the nuclear empirical parameters (one MetaModel_EOS_model per draw) ---
jax.config.update("jax_enable_x64", True)  # scaffolding: jose runs in float64
import numpy as np  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
calls = 0  # scaffolding
for draw in range(4):  # scaffolding: four prior draws
    NEP_dict = {"E_sat": -16.0, "K_sat": float(rng.uniform(150, 300)), "Q_sat": 0.0, "Z_sat": 0.0,  # scaffolding
                "E_sym": float(rng.uniform(28, 45)), "L_sym": float(rng.uniform(10, 200)), "K_sym": 0.0, "Q_sym": 0.0, "Z_sym": 0.0}  # scaffolding
    eos_model = MetaModel_EOS_model(NEP_dict, nmax_nsat=2.0, ndat=50)
    p_at_2nsat = eos_model.pressure_from_number_density(0.32 * utils.fm_inv3_to_geometric)  # scaffolding: one lookup per EOS
    calls += 1  # scaffolding
_report({"jit(compute_b)", "jit(compute_cs2)", "jit(compute_energy)", "jit(compute_f_1)", "jit(compute_f_star)", "jit(compute_f_star2)", "jit(compute_f_star3)", "jit(compute_pressure)", "jit(compute_v)", "jit(compute_x)", "jit(dloge_dlogp_from_pseudo_enthalpy)", "jit(energy_density_from_pseudo_enthalpy)", "jit(esym)", "jit(pressure_from_number_density)", "jit(pressure_from_pseudo_enthalpy)", "jit(pseudo_enthalpy_from_pressure)"}, calls)  # scaffolding
