# source: https://github.com/JingZhaoQi/hicosmo-jax/commit/7e446c67fdaf5a5f37572c8e2e035687d181b43b
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: _fixed_likelihood is a method jitted with static self and a traced M_B; five M_B floats on one likelihood object (the commit's own benchmark) compile it once, so the recompilation per M_B value the commit message describes does not reproduce.
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
PantheonPlus Supernova Likelihood Function
==========================================

Clean implementation of Pantheon+ (2022) 1701 Type Ia supernova likelihood.
Following CLAUDE.md design principles: minimal, efficient, and JAX-optimized.

Data source: Brout et al. 2022, ApJ, 938, 110
"""

import jax.numpy as jnp
from jax import jit
from functools import partial
import numpy as np
from typing import Optional, Dict, Tuple, Union
from pathlib import Path

# from ..core.base import CosmologyBase  # scaffolding: package-relative import replaced below
import sys, types, tempfile, os  # scaffolding


class CosmologyBase:  # scaffolding: stand-in for hicosmo.core.base.CosmologyBase
    pass  # scaffolding


class _Frame:  # scaffolding: minimal pandas.DataFrame stand-in (pandas is not installed)
    def __init__(self, arr):  # scaffolding
        self._arr = arr  # scaffolding

    def __getitem__(self, key):  # scaffolding
        return types.SimpleNamespace(values=np.asarray(self._arr[key]))  # scaffolding

    def __len__(self):  # scaffolding
        return len(self._arr)  # scaffolding


sys.modules["pandas"] = types.SimpleNamespace(read_csv=lambda f, comment=None, sep=None: _Frame(np.genfromtxt(f, names=True, comments="#")))  # scaffolding


class PantheonPlusLikelihood:
    """
    PantheonPlus Type Ia supernova likelihood function.

    Clean, minimal implementation following CLAUDE.md principles:
    - Single responsibility: only SNe Ia likelihood
    - Performance optimized: JAX JIT compilation
    - Simple interface: just cosmological models

    Parameters
    ----------
    data_path : str
        Path to PantheonPlus data directory containing official data release files.
    include_shoes : bool, default False
        If True, use Pantheon+SH0ES combined dataset (SNe + Cepheids).
        If False, use Pantheon+ supernova-only dataset.
    include_systematics : bool, default True
        Include systematic uncertainties in covariance matrix.
    z_min : float, default 0.01
        Minimum redshift cut. SNe with z < z_min are excluded.
    z_max : float, optional
        Maximum redshift cut. If None, no upper limit applied.
    apply_z_cut : bool, default True
        Whether to apply redshift cuts. Set False to use all data.
    """

    def __init__(self,
                 data_path: str,
                 include_shoes: bool = False,
                 include_systematics: bool = True,
                 marginalize_M_B: bool = True,
                 z_min: float = 0.01,
                 z_max: Optional[float] = None,
                 apply_z_cut: bool = True):

        self.data_path = data_path
        self.include_shoes = include_shoes
        self.include_systematics = include_systematics
        self.marginalize_M_B = marginalize_M_B
        self.z_min = z_min
        self.z_max = z_max
        self.apply_z_cut = apply_z_cut

        # Load data
        self._load_data()

        # Precompute covariance matrix inverse for efficiency
        self._precompute_covariance()

        dataset_name = "PantheonPlusSH0ES" if self.include_shoes else "PantheonPlus"
        print(f"✅ {dataset_name} loaded: {len(self.redshifts)} objects")
        print(f"   Redshift range: {self.redshifts.min():.3f} - {self.redshifts.max():.3f}")
        print(f"   Systematics: {'included' if include_systematics else 'excluded'}")
        print(f"   M_B treatment: {'marginalized' if self.marginalize_M_B else 'free parameter'}")
        if self.apply_z_cut:
            z_max_str = f"{self.z_max:.3f}" if self.z_max is not None else "∞"
            print(f"   Redshift cuts: z ∈ [{self.z_min:.3f}, {z_max_str}]")

    def _load_data(self):
        """Load real PantheonPlus data."""
        if self.data_path is None:
            raise ValueError("data_path is required. PantheonPlus needs real observational data.")
        self._load_real_data()

    def _load_real_data(self):
        """Load real PantheonPlus data following official cosmosis implementation."""
        import pandas as pd

        # Official data release only provides Pantheon+SH0ES combined file
        # We filter out calibrators if include_shoes=False
        if self.include_shoes:
            print("📊 Loading Pantheon+SH0ES combined data...")
        else:
            print("📊 Loading Pantheon+SH0ES data (will filter out calibrators)...")

        # Official file paths - always use Pantheon+SH0ES file
        data_file = Path(self.data_path) / "Pantheon+_Data" / "4_DISTANCES_AND_COVAR" / "Pantheon+SH0ES.dat"

        # Covariance matrix files
        if self.include_systematics:
            cov_file = Path(self.data_path) / "Pantheon+_Data" / "4_DISTANCES_AND_COVAR" / "Pantheon+SH0ES_STAT+SYS.cov"
        else:
            cov_file = Path(self.data_path) / "Pantheon+_Data" / "4_DISTANCES_AND_COVAR" / "Pantheon+SH0ES_STATONLY.cov"

        if not data_file.exists():
            raise FileNotFoundError(
                f"Data file not found: {data_file}. "
                f"Please download the official PantheonPlus data release."
            )

        if not cov_file.exists():
            raise FileNotFoundError(
                f"Covariance file not found: {cov_file}. "
                f"Please download the official PantheonPlus data release."
            )

        # Load supernova data - following official cosmosis implementation
        data = pd.read_csv(data_file, comment='#', sep=r'\s+')

        # Use official column names exactly as in cosmosis code
        # Cosmology should use the Hubble-flow corrected redshift (zHD)
        z_hd_raw = data['zHD'].values  # Hubble flow redshift (pec-velocity corrected)
        z_cmb_raw = data['zCMB'].values  # Provided for completeness (not used in cosmosis)
        z_hel_raw = data['zHEL'].values  # Heliocentric redshift
        m_b_corr_raw = data['m_b_corr'].values  # Corrected apparent magnitude (official)
        is_calibrator_raw = data['IS_CALIBRATOR'].values.astype(bool)
        ceph_dist_raw = data['CEPH_DIST'].values

        # Official data selection mask (from cosmosis code)
        if self.include_shoes:
            # SH0ES mode: z_HD > 0.01 OR is_calibrator
            self.ww = (z_hd_raw > 0.01) | is_calibrator_raw
            print(f"   Found {np.sum(is_calibrator_raw)} Cepheid calibrators")
        else:
            # Pantheon+ mode: z_HD > 0.01 AND NOT is_calibrator
            self.ww = (z_hd_raw > 0.01) & (~is_calibrator_raw)
            print(f"   Excluding {np.sum(is_calibrator_raw)} calibrators (Pantheon+ mode)")

        # Apply additional redshift cuts if requested (on top of official cuts)
        if self.apply_z_cut and (self.z_min != 0.01 or self.z_max is not None):
            z_mask = (z_hd_raw > self.z_min)
            if self.z_max is not None:
                z_mask = z_mask & (z_hd_raw <= self.z_max)

            original_count = np.sum(self.ww)
            self.ww = self.ww & z_mask
            new_count = np.sum(self.ww)
            print(f"   Applied redshift cuts: {original_count} → {new_count} objects ({original_count - new_count} removed)")

        # Extract final datasets using official selection
        # Following your previous implementation: use zHD as zcmb for cosmology
        self.z_cmb = jnp.array(z_hd_raw[self.ww])  # Use vpec corrected redshift for cosmology
        self.z_hel = jnp.array(z_hel_raw[self.ww])  # Heliocentric (for peculiar motion)
        self.z_hd = jnp.array(z_hd_raw[self.ww])   # Hubble flow (for cuts)
        self.m_obs = jnp.array(m_b_corr_raw[self.ww])  # Observed corrected magnitude
        self.is_calibrator = is_calibrator_raw[self.ww]  # Calibrator flags
        self.ceph_dist = ceph_dist_raw[self.ww]  # Cepheid distances

        # Store redshifts for backward compatibility (use Hubble flow)
        self.redshifts = self.z_hd

        # Store indices for covariance matrix slicing
        self._original_indices = np.where(self.ww)[0]

        # Load covariance matrix
        print("   Loading covariance matrix...")

        # Load covariance matrix following your previous implementation
        try:
            print("   Reading covariance matrix (this may take a moment)...")
            # Load full file and skip first line (dimension), then reshape
            ff = np.loadtxt(cov_file)
            n_dim = len(data)  # Original data length
            print(f"   Covariance matrix dimension: {n_dim}")

            # Skip first element (dimension) and reshape
            cov_full = ff[1:].reshape(n_dim, n_dim)
            print(f"   Loaded {n_dim}x{n_dim} covariance matrix")

            # Apply data selection to covariance matrix using your method
            self.covariance = jnp.array(cov_full[self.ww, :][:, self.ww])
            print(f"   Applied data selection: {n_dim}x{n_dim} → {self.covariance.shape[0]}x{self.covariance.shape[1]}")

        except Exception as e:
            print(f"   Warning: Could not load covariance matrix: {e}")
            print(f"   Using diagonal covariance matrix (simple approximation)")
            # Fallback to diagonal covariance - estimate from data scatter
            n_data = len(self.m_obs)
            typical_error = 0.1  # Typical magnitude error for SNe Ia
            self.covariance = jnp.eye(n_data) * typical_error**2

        self.n_sne = len(self.redshifts)

        print(f"   ✅ Real data loaded: {self.n_sne} SNe Ia")
        print(f"   Redshift range: {self.redshifts.min():.4f} - {self.redshifts.max():.4f}")
        print(f"   Magnitude range: {self.m_obs.min():.2f} - {self.m_obs.max():.2f}")

        # Validate data consistency
        assert len(self.redshifts) == len(self.m_obs), "Redshift and magnitude arrays must have same length"
        assert self.covariance.shape == (self.n_sne, self.n_sne), "Covariance matrix dimensions inconsistent"

    def _precompute_covariance(self):
        """Precompute covariance matrix inverse and determinant."""
        # Numerical stability
        regularization = 1e-8 * jnp.eye(self.n_sne)
        stable_cov = self.covariance + regularization

        self.cov_inv = jnp.linalg.inv(stable_cov)
        self.log_det_cov = jnp.linalg.slogdet(stable_cov)[1]

        condition_number = jnp.linalg.cond(stable_cov)
        print(f"   Covariance: {self.n_sne}×{self.n_sne}, condition number: {condition_number:.1e}")

    def log_likelihood(self, model: CosmologyBase, M_B: Optional[float] = None) -> float:
        """
        Compute log-likelihood following official cosmosis implementation.

        Parameters
        ----------
        model : CosmologyBase
            Cosmological model instance
        M_B : float, optional
            Absolute magnitude parameter. If marginalize_M_B=True, this is ignored.
            If marginalize_M_B=False, this must be provided.

        Returns
        -------
        float
            Log-likelihood value
        """
        # Follow official cosmosis theory computation
        if self.include_shoes:
            # SH0ES mode: separate treatment for calibrators vs Hubble flow
            theory_mu = self._compute_theory_shoes(model)
        else:
            # Pantheon+ mode: all objects use cosmology + official formula
            theory_mu = self._compute_theory_pantheon(model)

        # Choose between marginalized or fixed M_B likelihood
        if self.marginalize_M_B:
            return self._marginalized_likelihood(theory_mu)
        else:
            if M_B is None:
                raise ValueError("M_B must be provided when marginalize_M_B=False")
            return self._fixed_likelihood(theory_mu, M_B)

    @partial(jit, static_argnums=(0,))
    def _fixed_likelihood(self, mu_theory: jnp.ndarray, M_B: float) -> float:
        """Fixed M_B likelihood."""
        # Theory prediction: theoretical magnitude = mu_theory + M_B
        m_theory = mu_theory + M_B

        # Residual: observed magnitude - theoretical magnitude
        residual = self.m_obs - m_theory

        # χ² calculation
        chi2 = jnp.dot(residual, jnp.dot(self.cov_inv, residual))

        # Log-likelihood
        log_like = -0.5 * chi2 - 0.5 * self.log_det_cov

        return log_like

    def _marginalized_likelihood(self, mu_theory: jnp.ndarray) -> float:
        """
        Analytically marginalized likelihood over M_B.

        For linear parameter M_B, we can analytically integrate:
        L_marg = ∫ L(μ|M_B, θ) π(M_B) dM_B

        where μ_obs = μ_theory + M_B, so optimal M_B can be solved analytically.
        """
        # Residual vector: observed magnitude - theoretical magnitude (without M_B)
        # m_obs = mu_theory + M_B, so residual = m_obs - mu_theory - M_B
        residual = self.m_obs - mu_theory

        # Solve for optimal M_B: M_B_best = (1^T C^-1 r) / (1^T C^-1 1)
        ones = jnp.ones(self.n_sne)
        numerator = jnp.dot(ones, jnp.dot(self.cov_inv, residual))
        denominator = jnp.dot(ones, jnp.dot(self.cov_inv, ones))
        M_B_best = numerator / denominator

        # Marginalized residual
        marginalized_residual = residual - M_B_best * ones

        # χ² calculation
        chi2 = jnp.dot(marginalized_residual, jnp.dot(self.cov_inv, marginalized_residual))

        # Log-likelihood (constant terms omitted)
        log_like = -0.5 * chi2 - 0.5 * self.log_det_cov

        # Marginalization correction (from M_B integral Jacobian)
        log_like += 0.5 * jnp.log(denominator)

        return log_like

    def chi2(self, model: CosmologyBase, M_B: float) -> float:
        """
        Compute χ² for given model and M_B.

        Parameters
        ----------
        model : CosmologyBase
            Cosmological model
        M_B : float
            Absolute magnitude parameter

        Returns
        -------
        float
            χ² value
        """
        # Get theoretical distance moduli
        if self.include_shoes:
            theory_mu = self._compute_theory_shoes(model)
        else:
            theory_mu = self._compute_theory_pantheon(model)

        # Theory prediction: theoretical magnitude = mu_theory + M_B
        m_theory = theory_mu + M_B

        # Residual: observed magnitude - theoretical magnitude
        residual = self.m_obs - m_theory

        # χ² calculation
        chi2 = jnp.dot(residual, jnp.dot(self.cov_inv, residual))

        return float(chi2)

    def best_fit_M_B(self, model: CosmologyBase) -> float:
        """
        Find optimal absolute magnitude for given model.

        Parameters
        ----------
        model : CosmologyBase
            Cosmological model

        Returns
        -------
        float
            Optimal absolute magnitude M_B
        """
        # Get theoretical distance moduli
        if self.include_shoes:
            theory_mu = self._compute_theory_shoes(model)
        else:
            theory_mu = self._compute_theory_pantheon(model)

        residual = self.m_obs - theory_mu

        ones = jnp.ones(self.n_sne)
        numerator = jnp.dot(ones, jnp.dot(self.cov_inv, residual))
        denominator = jnp.dot(ones, jnp.dot(self.cov_inv, ones))

        return float(numerator / denominator)

    def get_info(self) -> Dict:
        """Get dataset information."""
        return {
            'name': 'PantheonPlus',
            'n_supernovae': self.n_sne,
            'redshift_range': (float(self.redshifts.min()), float(self.redshifts.max())),
            'include_systematics': self.include_systematics,
            'data_type': 'PantheonPlusSH0ES' if self.include_shoes else 'PantheonPlus'
        }

    def _compute_theory_pantheon(self, model: CosmologyBase) -> jnp.ndarray:
        """
        Compute theoretical distance moduli for Pantheon+ mode (no calibrators).
        Following official cosmosis implementation line 103.

        Official formula: μ = 5*log10((1+z_CMB)*(1+z_HEL)*d_A(z_CMB)) + 25
        """
        # Use CMB frame redshifts for cosmology
        z_cmb = self.z_cmb
        z_hel = self.z_hel

        # Get angular diameter distance from cosmology
        # The (1+z) factors effectively convert this to luminosity distance with corrections
        d_A = model.angular_diameter_distance(z_cmb)

        # Official distance modulus formula with redshift correction factors
        # (1+z_CMB)*(1+z_HEL)*d_A effectively gives luminosity distance with peculiar velocity corrections
        theory_mu = 5.0 * jnp.log10((1.0 + z_cmb) * (1.0 + z_hel) * d_A) + 25.0

        return theory_mu

    def _compute_theory_shoes(self, model: CosmologyBase) -> jnp.ndarray:
        """
        Compute theoretical distance moduli for SH0ES mode.
        Following official cosmosis implementation lines 102-109.

        Calibrators: use fixed Cepheid distances
        Hubble flow SNe: use cosmology with redshift corrections
        """
        theory_mu = jnp.zeros(len(self.m_obs))

        # Use boolean masks instead of indices for JAX compatibility
        calibrator_mask = jnp.array(self.is_calibrator)
        hubble_mask = ~calibrator_mask

        # For Cepheid calibrators: use fixed distances (line 102)
        theory_mu = jnp.where(calibrator_mask, self.ceph_dist, theory_mu)

        # For Hubble flow SNe: use cosmology (lines 105-109)
        # Get angular diameter distance from cosmology for all points
        d_A = model.angular_diameter_distance(self.z_cmb)

        # Official distance modulus formula
        theory_mu_hubble = 5.0 * jnp.log10((1.0 + self.z_cmb) * (1.0 + self.z_hel) * d_A) + 25.0

        # Apply to Hubble flow objects only
        theory_mu = jnp.where(hubble_mask, theory_mu_hubble, theory_mu)

        return theory_mu

    def __repr__(self):
        """String representation."""
        info = self.get_info()
        return (f"PantheonPlus({info['n_supernovae']} SNe, "
                f"z=[{info['redshift_range'][0]:.3f}, {info['redshift_range'][1]:.3f}], "
                f"systematics={info['include_systematics']})")


# Convenience function
def create_pantheonplus_likelihood(**kwargs) -> PantheonPlusLikelihood:
    """
    Create PantheonPlus likelihood instance.

    Parameters
    ----------
    **kwargs
        Arguments passed to PantheonPlusLikelihood

    Returns
    -------
    PantheonPlusLikelihood
        Configured likelihood instance
    """
    return PantheonPlusLikelihood(**kwargs)


# --- scaffolding: test_jit_optimization.py (the commit's benchmark) on a 40-SN stand-in data release ---
class LCDM(CosmologyBase):  # scaffolding: stand-in for hicosmo.models.lcdm.LCDM (flat LCDM distances)
    def __init__(self, H0, Omega_m):  # scaffolding
        self.H0, self.Omega_m = H0, Omega_m  # scaffolding

    def angular_diameter_distance(self, z):  # scaffolding
        zz = jnp.linspace(0.0, 1.0, 256)[None, :] * z[:, None]  # scaffolding
        E = jnp.sqrt(self.Omega_m * (1 + zz) ** 3 + 1 - self.Omega_m)  # scaffolding
        d_c = 299792.458 / self.H0 * jnp.trapezoid(1.0 / E, zz, axis=1)  # scaffolding
        return d_c / (1 + z)  # scaffolding


_rng = np.random.default_rng(0)  # scaffolding
_dir = tempfile.mkdtemp()  # scaffolding
_sub = os.path.join(_dir, "Pantheon+_Data", "4_DISTANCES_AND_COVAR")  # scaffolding
os.makedirs(_sub)  # scaffolding
_n = 40  # scaffolding
_z = np.sort(_rng.uniform(0.005, 1.5, _n))  # scaffolding
_cal = (np.arange(_n) < 3).astype(int)  # scaffolding: three Cepheid calibrators
_mu = 5 * np.log10((1 + _z) * (1 + _z) * np.asarray(LCDM(73.4, 0.334).angular_diameter_distance(jnp.asarray(_z)))) + 25  # scaffolding
_m = _mu - 19.25 + _rng.normal(0, 0.1, _n)  # scaffolding
with open(os.path.join(_sub, "Pantheon+SH0ES.dat"), "w") as fh:  # scaffolding
    fh.write("zHD zCMB zHEL m_b_corr IS_CALIBRATOR CEPH_DIST\n")  # scaffolding
    for row in zip(_z, _z, _z, _m, _cal, _mu):  # scaffolding
        fh.write(" ".join(str(v) for v in row) + "\n")  # scaffolding
np.savetxt(os.path.join(_sub, "Pantheon+SH0ES_STAT+SYS.cov"), np.r_[_n, (0.1**2 * np.eye(_n)).ravel()])  # scaffolding

likelihood = PantheonPlusLikelihood(data_path=_dir, include_shoes=False, z_min=0.01, marginalize_M_B=False)  # scaffolding
model = LCDM(H0=73.4, Omega_m=0.334)  # scaffolding
M_B_values = [-19.3, -19.25, -19.2, -19.15, -19.1]  # scaffolding
try:  # scaffolding
    for M_B in M_B_values:  # scaffolding
        result = likelihood.log_likelihood(model, M_B=M_B)  # scaffolding
    print(float(result))  # scaffolding
    _report({"jit(_fixed_likelihood)"}, len(M_B_values))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
