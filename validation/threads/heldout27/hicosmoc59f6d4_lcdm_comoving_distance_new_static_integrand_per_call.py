# source: https://github.com/JingZhaoQi/hicosmo-jax/commit/c59f6d49eeab1518d9e5ef236d047907b45b71e6
# expect: changing-static at line 345
# runtime: COMPILES 3 CALLS 3
# why: after the commit the only jitted path is integrate(self, integrand, ...) with the integrand static, and LCDM.comoving_distance defines a new `integrand` closure on every call, so each distance compiles integrate again: 3 redshifts, 3 compiles (after __init__'s warm-up).
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


"""
Fast Integration Engine for HIcosmo
===================================

Ultra-high performance integration engine for neutral hydrogen cosmology and 21cm surveys.
Completely replacing Diffrax with intelligent adaptive method selection.

Core Features:
- Eliminate all hardcoding, fully parametric design
- Intelligent adaptive method selection (Ultra-Fast, Vectorized, Interpolation)  
- Support arbitrary cosmological parameters and precision configurations
- Optimized for 21cm cosmology and neutral hydrogen physics
- Outperforms qcosmc and astropy in all scenarios

Author: Jingzhao Qi
"""

from typing import Dict, Union, Optional, Tuple, Literal
import numpy as np
import jax.numpy as jnp
from jax import jit, vmap, lax
from functools import partial, lru_cache
import warnings

# from ..utils.constants import c_km_s  # scaffolding: replaced below
c_km_s = 299792.458  # scaffolding: speed of light in km/s, as in hicosmo/utils/constants.py


class FastIntegration:
    """
    Ultra-high performance integration engine
    
    Fully parameterized integration system that automatically selects optimal computation method based on input:
    - Single point: Ultra-Fast Single (JAX JIT + Gaussian integration)
    - Small batch: NumPy Vectorized (learning from qcosmc strategy) 
    - Large batch: Simple Interpolation (pre-computed table)
    - High precision: Ultra-Optimized Batch (JAX vectorization)
    """
    
    def __init__(
        self, 
        params: Dict[str, float],
        precision_mode: Literal['fast', 'balanced', 'precise'] = 'balanced',
        cache_size: int = 5000,
        z_max: float = 20.0,
        auto_select: bool = True
    ):
        """
        Initialize ultra-high performance integration system
        
        Parameters
        ----------
        params : Dict[str, float]
            Cosmological parameters dictionary, must contain H0, Omega_m
        precision_mode : {'fast', 'balanced', 'precise'}
            Precision mode:
            - 'fast': Prioritize speed, 8-point Gauss integration
            - 'balanced': Balance precision and speed, 12-point Gauss integration  
            - 'precise': Prioritize precision, 16-point Gauss integration
        cache_size : int
            Size of precomputed lookup table (default 5000 points)
        z_max : float
            Maximum redshift range (default 20.0)
        auto_select : bool
            Whether to enable intelligent method selection (default True)
        """
        self.params = params.copy()
        self.precision_mode = precision_mode
        self.cache_size = cache_size  
        self.z_max = z_max
        self.auto_select = auto_select
        
        # Validate required parameters
        required_params = ['H0', 'Omega_m']
        missing = [p for p in required_params if p not in params]
        if missing:
            raise ValueError(f"Missing required parameters: {missing}")
            
        # Calculate derived parameters
        self.params['Omega_Lambda'] = 1.0 - self.params['Omega_m'] - self.params.get('Omega_k', 0.0)
        self.params['D_H'] = c_km_s / self.params['H0']  # Hubble distance
        
        # Set integration parameters based on precision mode
        self._setup_integration_params()
        
        # Precompute Gaussian integration nodes and weights
        self._precompute_gauss_quadrature()

        # Precompile JIT functions
        self._compile_functions()
        
    def _setup_integration_params(self):
        """Set integration parameters based on precision mode"""
        if self.precision_mode == 'fast':
            self.primary_order = 8
            self.precise_order = 12
            self.batch_threshold = 20  # Use vectorization for less than 20 points
        elif self.precision_mode == 'balanced':
            self.primary_order = 12
            self.precise_order = 16
            self.batch_threshold = 50  # Use vectorization for less than 50 points
        else:  # 'precise'
            self.primary_order = 16
            self.precise_order = 20
            self.batch_threshold = 100  # Use vectorization for less than 100 points
            
    def _precompute_gauss_quadrature(self):
        """Precompute Gauss-Legendre nodes and weights for different orders"""
        self.gauss_nodes = {}
        self.gauss_weights = {}
        
        # Precomputed Gauss-Legendre nodes and weights
        # 8-point Gaussian integration
        self.gauss_nodes[8] = jnp.array([
            -0.9602898565, -0.7966664774, -0.5255324099, -0.1834346425,
             0.1834346425,  0.5255324099,  0.7966664774,  0.9602898565
        ])
        self.gauss_weights[8] = jnp.array([
            0.1012285363, 0.2223810345, 0.3137066459, 0.3626837834,
            0.3626837834, 0.3137066459, 0.2223810345, 0.1012285363
        ])
        
        # 12-point Gaussian integration
        self.gauss_nodes[12] = jnp.array([
            -0.9815606342, -0.9041172564, -0.7699026741, -0.5873179543,
            -0.3678314990, -0.1252334085,  0.1252334085,  0.3678314990,
             0.5873179543,  0.7699026741,  0.9041172564,  0.9815606342
        ])
        self.gauss_weights[12] = jnp.array([
            0.0471753364, 0.1069393260, 0.1600783286, 0.2031674267,
            0.2334925365, 0.2491470458, 0.2491470458, 0.2334925365,
            0.2031674267, 0.1600783286, 0.1069393260, 0.0471753364
        ])
        
        # 16-point Gaussian integration
        self.gauss_nodes[16] = jnp.array([
            -0.9894009349, -0.9445750231, -0.8656312024, -0.7554044084,
            -0.6178762444, -0.4580167776, -0.2816035507, -0.0950125098,
             0.0950125098,  0.2816035507,  0.4580167776,  0.6178762444,
             0.7554044084,  0.8656312024,  0.9445750231,  0.9894009349
        ])
        self.gauss_weights[16] = jnp.array([
            0.0271524594, 0.0622535239, 0.0951585117, 0.1246289712,
            0.1495959888, 0.1691565194, 0.1826034150, 0.1894506105,
            0.1894506105, 0.1826034150, 0.1691565194, 0.1495959888,
            0.1246289712, 0.0951585117, 0.0622535239, 0.0271524594
        ])
        
        # 20-point Gaussian integration (ultra high precision)
        self.gauss_nodes[20] = jnp.array([
            -0.9931285992, -0.9639719273, -0.9122344283, -0.8391169718,
            -0.7463319065, -0.6360536807, -0.5108670020, -0.3737060887,
            -0.2277858511, -0.0765265211,  0.0765265211,  0.2277858511,
             0.3737060887,  0.5108670020,  0.6360536807,  0.7463319065,
             0.8391169718,  0.9122344283,  0.9639719273,  0.9931285992
        ])
        self.gauss_weights[20] = jnp.array([
            0.0176140071, 0.0406014298, 0.0626720483, 0.0832767416,
            0.1019301198, 0.1181945320, 0.1316886384, 0.1420961093,
            0.1491729865, 0.1527533871, 0.1527533871, 0.1491729865,
            0.1420961093, 0.1316886384, 0.1181945320, 0.1019301198,
            0.0832767416, 0.0626720483, 0.0406014298, 0.0176140071
        ])
            
    def _compile_functions(self):
        """Precompile JIT functions for generic integrator"""
        # Warm up generic integrator
        test_z_array = jnp.array([0.5, 1.0, 2.0])
        test_integrand = lambda z: z**2

        _ = self.integrate(test_integrand, 0.0, 1.0)
        _ = self.integrate_batch(test_integrand, test_z_array, 0.0)

    # ==================== Generic Integration Methods ====================
    # These methods accept arbitrary integrands (no hardcoded cosmology)

    @partial(jit, static_argnums=(0, 1))  # Mark self and integrand as static
    def integrate(
        self,
        integrand: callable,
        z_min: float,
        z_max: float
    ) -> float:
        """
        Generic numerical integration using Gauss-Legendre quadrature.

        This is the core integration engine with NO cosmology hardcoded.
        Accepts any integrand function.

        Parameters
        ----------
        integrand : callable
            Function to integrate, signature: integrand(z: float) -> float
        z_min : float
            Lower integration limit
        z_max : float
            Upper integration limit

        Returns
        -------
        float
            Integral value: ∫[z_min, z_max] integrand(z) dz

        Examples
        --------
        >>> integrator = FastIntegration(params={'H0': 70, 'Omega_m': 0.3})
        >>> # Integrate x^2 from 0 to 1
        >>> result = integrator.integrate(lambda z: z**2, 0.0, 1.0)
        >>> print(result)  # Should be ~0.333
        >>>
        >>> # Use with cosmology: integrate 1/E(z)
        >>> def inv_E_z(z):
        >>>     return 1.0 / model.E_z(z)
        >>> d_c = integrator.integrate(inv_E_z, 0.0, 1.0) * (c/H0)
        """
        # Get Gauss-Legendre nodes and weights
        nodes = self.gauss_nodes[self.primary_order]
        weights = self.gauss_weights[self.primary_order]

        # Transform interval [z_min, z_max] to [-1, 1]
        z_mid = 0.5 * (z_max + z_min)
        z_half = 0.5 * (z_max - z_min)

        # Compute integration nodes
        z_nodes = z_mid + z_half * nodes

        # Evaluate integrand at all nodes (vectorized)
        integrand_vals = vmap(integrand)(z_nodes)

        # Gauss-Legendre integration
        integral = z_half * jnp.sum(weights * integrand_vals)

        return integral

    def integrate_batch(
        self,
        integrand: callable,
        z_array: jnp.ndarray,
        z_min: float = 0.0
    ) -> jnp.ndarray:
        """
        Batch integration: compute ∫[z_min, z_i] integrand(z) dz for multiple z_i.

        Parameters
        ----------
        integrand : callable
            Function to integrate
        z_array : array_like
            Array of upper integration limits [z_1, z_2, ..., z_n]
        z_min : float, optional
            Lower integration limit (default: 0.0)

        Returns
        -------
        array_like
            Array of integral values

        Examples
        --------
        >>> z_vals = jnp.array([0.5, 1.0, 1.5, 2.0])
        >>> results = integrator.integrate_batch(lambda z: 1/E(z), z_vals)
        """
        # Vectorize single integration
        integrate_single = lambda z_max: self.integrate(integrand, z_min, z_max)
        return vmap(integrate_single)(z_array)

    def get_performance_info(self) -> Dict[str, str]:
        """
        Get performance configuration information

        Returns
        -------
        dict
            Performance configuration information
        """
        info = {
            'precision_mode': self.precision_mode,
            'primary_order': f"{self.primary_order}-point Gauss",
            'precise_order': f"{self.precise_order}-point Gauss",
        }
        return info


# --- hicosmo/models/lcdm.py at the same commit: LCDM.E_z and LCDM.comoving_distance (verbatim), in a minimal class ---
class LCDM:  # scaffolding: stand-in for hicosmo.models.lcdm.LCDM (its parameter machinery is cut)
    def __init__(self, H0=67.36, Omega_m=0.3153, precision_mode='balanced'):  # scaffolding
        self.params = {'H0': H0, 'Omega_m': Omega_m, 'Omega_k': 0.0, 'Omega_r': 0.0}  # scaffolding
        self.params['Omega_Lambda'] = 1.0 - Omega_m  # scaffolding
        self.params['D_H'] = c_km_s / H0  # scaffolding
        self.precision_mode = precision_mode
        self.fast_integration = FastIntegration(
            params=self.params,
            precision_mode=precision_mode,
            auto_select=True
        )

    def E_z(self, z: Union[float, jnp.ndarray]) -> Union[float, jnp.ndarray]:
        z_arr = jnp.asarray(z)
        one_plus_z = 1.0 + z_arr

        # Get parameters from instance
        Omega_m = self.params['Omega_m']
        Omega_r = self.params.get('Omega_r', 0.0)
        Omega_k = self.params.get('Omega_k', 0.0)
        Omega_Lambda = self.params['Omega_Lambda']

        # Components
        matter_term = Omega_m * one_plus_z**3
        radiation_term = Omega_r * one_plus_z**4
        curvature_term = Omega_k * one_plus_z**2
        de_term = Omega_Lambda

        E_squared = matter_term + radiation_term + curvature_term + de_term

        return jnp.sqrt(E_squared)

    def comoving_distance(self, z: Union[float, jnp.ndarray]) -> Union[float, jnp.ndarray]:
        # Define the integrand: 1/E(z)
        def integrand(z_prime):
            return 1.0 / self.E_z(z_prime)

        # Single redshift case
        if jnp.isscalar(z) or (isinstance(z, (float, int))):
            # Integrate from 0 to z
            integral = self.fast_integration.integrate(integrand, 0.0, float(z))
            return self.params['D_H'] * integral

        # Array case
        else:
            z_array = jnp.atleast_1d(z)
            # Batch integration
            integrals = self.fast_integration.integrate_batch(integrand, z_array, z_min=0.0)
            return self.params['D_H'] * integrals


# --- scaffolding: distances of three supernovae with one model ---
model = LCDM(H0=70.0, Omega_m=0.3)  # scaffolding
_COMPILED.clear()  # scaffolding: count only the compiles after __init__'s warm-up
try:  # scaffolding
    for z in (0.5, 1.0, 1.5):  # scaffolding
        d = model.comoving_distance(z)  # scaffolding
    print(float(d))  # scaffolding
    _report({"jit(integrate)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
