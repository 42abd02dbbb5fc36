# source: https://github.com/scverse/pertpy/issues/454
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: ref_index reaches the scCODA numpyro model as a concrete jnp.array closed over by NUTS (jit_model_args is off), so slicing beta_raw[:, :ref_index] inside the traced potential works on jax 0.10.2 and the sampling loop compiles once.
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


# pertpy/tools/_coda/_sccoda.py and _base_coda.py at 5c784acf (the state reported in issue #454), flattened

import jax
import jax.numpy as jnp
import numpy as np
import numpyro as npy
import numpyro.distributions as npd
from jax import random
from numpyro.infer import MCMC, NUTS

jax.config.update("jax_enable_x64", True)  # the module did `from jax.config import config; config.update(...)`


class AnnData:  # scaffolding: stand-in for anndata.AnnData (X, obsm, uns only)
    def __init__(self, X, covariate_matrix, reference_index):  # scaffolding
        self.X = X  # scaffolding
        self.obsm = {"covariate_matrix": covariate_matrix, "sample_counts": X.sum(axis=1)}  # scaffolding
        self.uns = {"scCODA_params": {"reference_index": reference_index, "mcmc": {}}}  # scaffolding


class Sccoda:
    """
    Statistical model for single-cell differential composition analysis with specification of a reference cell type.
    This is the standard scCODA model and recommended for all uses.
    """

    def model(  # type: ignore
        self,
        counts: np.ndarray,
        covariates: np.ndarray,
        n_total: np.ndarray,
        ref_index,
        sample_adata: AnnData,
    ):
        """Implements scCODA model in numpyro"""
        # data dimensions
        N, D = sample_adata.obsm["covariate_matrix"].shape
        P = sample_adata.X.shape[1]

        # numpyro plates for all dimensions
        covariate_axis = npy.plate("covs", D, dim=-2)
        cell_type_axis = npy.plate("ct", P, dim=-1)
        cell_type_axis_nobl = npy.plate("ctnb", P - 1, dim=-1)
        sample_axis = npy.plate("sample", N, dim=-2)

        # Effect priors
        with covariate_axis:
            sigma_d = npy.sample("sigma_d", npd.HalfCauchy(1.0))

        with covariate_axis, cell_type_axis_nobl:
            b_offset = npy.sample("b_offset", npd.Normal(0.0, 1.0))

            # spike-and-slab
            ind_raw = npy.sample("ind_raw", npd.Normal(0.0, 1.0))
            ind_scaled = ind_raw * 50
            ind = npy.deterministic("ind", jnp.exp(ind_scaled) / (1 + jnp.exp(ind_scaled)))

            b_raw = sigma_d * b_offset

            beta_raw = npy.deterministic("b_raw", ind * b_raw)

        with cell_type_axis:
            # Intercepts
            alpha = npy.sample("alpha", npd.Normal(0.0, 5.0))

            # Add 0 effect reference feature
            with covariate_axis:
                beta_full = jnp.concatenate(
                    (beta_raw[:, :ref_index], jnp.zeros(shape=[D, 1]), beta_raw[:, ref_index:]), axis=-1
                )
                beta = npy.deterministic("beta", beta_full)

        # Combine intercepts and effects
        with sample_axis:
            concentrations = npy.deterministic(
                "concentrations", jnp.nan_to_num(jnp.exp(alpha + jnp.matmul(covariates, beta)), 0.0001)
            )

        # Calculate DM-distributed counts
        predictions = npy.sample("counts", npd.DirichletMultinomial(concentrations, n_total), obs=counts)

        return predictions


    # _base_coda.CompositionalModel2.__run_mcmc, the part that builds the arrays and runs the sampler
    def _run_mcmc(self, sample_adata, kernel, rng_key, *args, **kwargs):
        dtype = "float64"

        # Convert all data needed for modeling to numpyro arrays
        numpyro_counts = jnp.array(sample_adata.X, dtype=dtype)
        numpyro_covariates = jnp.array(sample_adata.obsm["covariate_matrix"], dtype=dtype)
        numpyro_n_total = jnp.array(sample_adata.obsm["sample_counts"], dtype=dtype)

        # Create mcmc attribute and run inference
        self.mcmc = MCMC(kernel, *args, **kwargs)
        self.mcmc.run(
            rng_key,
            numpyro_counts,
            numpyro_covariates,
            numpyro_n_total,
            jnp.array(sample_adata.uns["scCODA_params"]["reference_index"]),
            sample_adata,
        )
        return self.mcmc.get_samples()


rng = np.random.default_rng(0)  # scaffolding: 6 samples, 4 cell types, one binary condition
counts = rng.integers(10, 100, size=(6, 4)).astype(float)  # scaffolding
covariates = np.array([[0.0], [0.0], [0.0], [1.0], [1.0], [1.0]])  # scaffolding
sample_adata = AnnData(counts, covariates, reference_index=2)  # scaffolding
sccoda = Sccoda()  # scaffolding
nuts_kernel = NUTS(sccoda.model)  # scaffolding: run_nuts also passes init_to_value(init_params)
samples = sccoda._run_mcmc(sample_adata, nuts_kernel, random.PRNGKey(42), num_warmup=20, num_samples=20, progress_bar=False)  # scaffolding
print(samples["beta"].shape)  # scaffolding
_report({"jit(_fori_collect_loop)"}, 1)  # scaffolding
