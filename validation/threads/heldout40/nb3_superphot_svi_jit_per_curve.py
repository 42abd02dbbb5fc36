# source: https://github.com/VTDA-Group/superphot-plus/blob/78a148b07fa08112845aec97385619a4e0dff842/src/superphot_plus/samplers/numpyro_sampler.py
# expect: jit-in-loop-or-body at line 208
# runtime: COMPILES 3 CALLS 3
# why: run_single_curve calls run_mcmc once per light curve, and run_mcmc builds a new SVI object and a new jit(lax_helper_function, static_argnums=(0, 2)) each time with that SVI as static argument 0, so the 10,000-step SVI scan is traced and compiled again for every light curve although the padded shapes are the same.

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
# src/superphot_plus/samplers/numpyro_sampler.py of VTDA-Group/superphot-plus at 78a148b (64090ff^):
# lax_helper_function, trunc_norm, prior_helper, create_jax_model, create_jax_guide, the SVI branch of
# run_mcmc and NumpyroSampler.run_single_curve (docstrings cut); the NUTS branch, Lightcurve, the survey
# priors and the posterior post-processing are replaced by marked stand-ins.
from os import urandom
from dataclasses import dataclass, field  # scaffolding

import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from jax import random, lax, jit
from numpyro.distributions import constraints
from numpyro.infer import SVI, Trace_ELBO

PAD_SIZE = 60  # scaffolding: superphot_plus.constants.PAD_SIZE


# --- scaffolding: stand-ins for superphot_plus.surveys (ZTF r-band priors only) and Lightcurve ---
@dataclass
class PriorFields:
    clip_a: float = 0
    clip_b: float = 0
    mean: float = 0
    std: float = 0


@dataclass
class CurvePriors:
    amp: PriorFields
    beta: PriorFields
    gamma: PriorFields
    t_0: PriorFields
    tau_rise: PriorFields
    tau_fall: PriorFields
    extra_sigma: PriorFields


@dataclass
class MultibandPriors:
    bands: dict
    reference_band: str = "r"
    aux_bands: list = field(default_factory=list)
    ordered_bands: list = field(default_factory=lambda: ["r"])


ZTF_PRIORS = MultibandPriors(bands={"r": CurvePriors(
    amp=PriorFields(-0.2, 1.2, 0, 0.5), beta=PriorFields(0.0, 0.2, 0.0052, 0.000504),
    gamma=PriorFields(-2.0, 2.5, 1.1391, 0.25785), t_0=PriorFields(-100.0, 200.0, 0, 50),
    tau_rise=PriorFields(-1.0, 3.0, 0.599, 0.31095), tau_fall=PriorFields(0.5, 4.0, 1.4296, 0.15045),
    extra_sigma=PriorFields(-5.0, -0.5, -1.5364, 0.2691))})


class Lightcurve:
    def __init__(self, seed):
        rng = np.random.default_rng(seed)
        self.times = np.linspace(-30.0, 100.0, PAD_SIZE)
        self.fluxes = 100.0 * np.exp(-np.abs(self.times) / 30.0) + rng.normal(0, 2.0, PAD_SIZE)
        self.flux_errors = np.full(PAD_SIZE, 2.0)
        self.bands = np.array(["r"] * PAD_SIZE)
        self.name = f"ZTF{seed}"
        self.sn_class = "SN Ia"

    def obs_count(self, band):
        return int(np.sum(self.bands == band))

    def find_max_flux(self, band=None):
        return float(np.max(self.fluxes)), 0.0

    def pad_bands(self, ordered_bands, pad_size):
        return self


def get_numpyro_cube(posterior_samples, max_flux, aux_bands):
    return np.stack([np.asarray(v) for v in posterior_samples.values()], axis=1), aux_bands


def calculate_neg_chi_squareds(posterior_cube, t, f, ferr, b, ordered_bands=None, ref_band=None):
    return np.zeros(posterior_cube.shape[0])
# --- end scaffolding ---


def lax_helper_function(svi, svi_state, num_iters, *args, **kwargs):
    """Helper function using LAX to speed up SVI state updates."""

    @jit
    def update_svi(s, _):
        return svi.stable_update(s, *args, **kwargs)

    u = svi_state
    u, _ = lax.scan(update_svi, svi_state, None, length=num_iters)
    return u


def trunc_norm(fields: PriorFields):
    return dist.TruncatedNormal(
        loc=fields.mean, scale=fields.std, low=fields.clip_a, high=fields.clip_b, validate_args=True
    )


def prior_helper(priors, max_flux, aux_b=None):
    amp = max_flux * 10 ** numpyro.sample("logA", trunc_norm(priors.amp))
    beta = numpyro.sample("beta", trunc_norm(priors.beta))
    gamma = 10 ** numpyro.sample("log_gamma", trunc_norm(priors.gamma))
    t_0 = numpyro.sample("t0", trunc_norm(priors.t_0))
    tau_rise = 10 ** numpyro.sample("log_tau_rise", trunc_norm(priors.tau_rise))
    tau_fall = 10 ** numpyro.sample("log_tau_fall", trunc_norm(priors.tau_fall))
    extra_sigma = 10 ** numpyro.sample("log_extra_sigma", trunc_norm(priors.extra_sigma))

    return amp, beta, gamma, t_0, tau_rise, tau_fall, extra_sigma


def create_jax_model(
    priors, t=None, obsflux=None, uncertainties=None, max_flux=None
):
    ref_priors = priors.bands[priors.reference_band]

    amp, beta, gamma, t_0, tau_rise, tau_fall, extra_sigma = prior_helper(ref_priors, max_flux)

    es_scaled = max_flux * extra_sigma
    phase = t - t_0
    flux_const = amp / (1.0 + jnp.exp(-phase / tau_rise))
    sigmoid = 1 / (1 + jnp.exp(10.0 * (gamma - phase)))

    flux = flux_const * (
        (1 - sigmoid) * (1 - beta * phase)
        + sigmoid * (1 - beta * gamma) * jnp.exp(-(phase - gamma) / tau_fall)
    )
    sigma_tot = jnp.sqrt(uncertainties**2 + es_scaled**2)

    _ = numpyro.sample("obs", dist.Normal(flux, sigma_tot), obs=obsflux)


def create_jax_guide(priors, t=None, obsflux=None, uncertainties=None, max_flux=None):
    def numpyro_sample(prefix: str, fields: PriorFields, param_constraint: float):
        param_mu = numpyro.param(
            f"{prefix}_mu",
            fields.mean,
            constraint=constraints.interval(fields.clip_a, fields.clip_b),
        )
        param_sigma = numpyro.param(f"{prefix}_sigma", param_constraint, constraint=constraints.positive)
        numpyro.sample(prefix, dist.Normal(param_mu, param_sigma))

    ref_priors = priors.bands[priors.reference_band]
    numpyro_sample("logA", ref_priors.amp, 1e-3)
    numpyro_sample("beta", ref_priors.beta, 1e-5)
    numpyro_sample("log_gamma", ref_priors.gamma, 1e-3)
    numpyro_sample("t0", ref_priors.t_0, 1e-3)
    numpyro_sample("log_tau_rise", ref_priors.tau_rise, 1e-3)
    numpyro_sample("log_tau_fall", ref_priors.tau_fall, 1e-3)
    numpyro_sample("log_extra_sigma", ref_priors.extra_sigma, 1e-3)


def run_mcmc(lc, rng_seed, sampler="NUTS", priors=ZTF_PRIORS):
    batch = type(lc) is list  # check if one LightCurve or multiple

    if rng_seed is None:
        rng_seed = int.from_bytes(urandom(4), "big")
    print(f"Running numpyro with seed={rng_seed}")

    rng_key = random.PRNGKey(rng_seed)
    rng_key, seed2 = random.split(rng_key)

    # Require data in all bands.
    for unique_band in priors.ordered_bands:
        if lc.obs_count(unique_band) == 0:
            return None

    def jax_model(t=None, obsflux=None, uncertainties=None, max_flux=None):
        create_jax_model(priors, t, obsflux, uncertainties, max_flux)

    def jax_guide(**kwargs):  # pylint: disable=unused-argument
        create_jax_guide(priors)

    if sampler == "svi":  # scaffolding: the NUTS branch is cut
        optimizer = numpyro.optim.Adam(step_size=0.001)
        svi = SVI(jax_model, jax_guide, optimizer, loss=Trace_ELBO())

        num_iter = 200  # scaffolding: 200 instead of 10_000
        lax_jit = jit(lax_helper_function, static_argnums=(0, 2))

        if not batch:
            lc = [
                lc,
            ]

        bad_prev_fit = True
        posterior_cubes = []
        for i, lc_single in enumerate(lc):
            if i % 100 == 0:
                print(i)

            # Require data in all bands.
            for unique_band in priors.ordered_bands:
                if lc_single.obs_count(unique_band) == 0:
                    posterior_cubes.append(None)
                    break

            if bad_prev_fit:
                svi_state = svi.init(
                    random.PRNGKey(1),
                    obsflux=lc_single.fluxes,
                    t=lc_single.times,
                    uncertainties=lc_single.flux_errors,
                    max_flux=lc_single.find_max_flux(band=priors.reference_band)[0],
                )

            max_flux, _ = lc_single.find_max_flux(band=priors.reference_band)

            svi_state = lax_jit(
                svi,
                svi_state,
                num_iter,
                obsflux=lc_single.fluxes,
                t=lc_single.times,
                uncertainties=lc_single.flux_errors,
                max_flux=max_flux,
            )

            # params = svi_result.params
            params = svi.get_params(svi_state)
            posterior_samples = {}
            for param in params:
                if param[-2:] == "mu":
                    rng = np.random.RandomState(seed2[0])
                    posterior_samples[param[:-3]] = rng.normal(
                        loc=params[param], scale=params[param[:-2] + "sigma"], size=100
                    )

            posterior_cube = get_numpyro_cube(posterior_samples, max_flux, priors.aux_bands)[0]
            padded_idxs = lc_single.flux_errors == 1e10
            red_neg_chisq = calculate_neg_chi_squareds(
                posterior_cube,
                lc_single.times[~padded_idxs],
                lc_single.fluxes[~padded_idxs],
                lc_single.flux_errors[~padded_idxs],
                lc_single.bands[~padded_idxs],
                ordered_bands=priors.ordered_bands,
                ref_band=priors.reference_band,
            )

            bad_prev_fit = np.mean(red_neg_chisq) < -6

            posterior_cube = np.hstack((posterior_cube, red_neg_chisq[np.newaxis, :].T))
            posterior_cubes.append(posterior_cube)

    else:
        raise ValueError("'sampler' must be 'NUTS' or 'svi'")

    return posterior_cubes


class NumpyroSampler:
    def run_single_curve(self, lightcurve, priors, rng_seed, sampler="svi", **kwargs):
        lightcurve.pad_bands(priors.ordered_bands, PAD_SIZE)
        eq_wt_samples = run_mcmc(lightcurve, rng_seed=rng_seed, sampler=sampler, priors=priors)
        if eq_wt_samples is None:
            return None
        return eq_wt_samples[0]  # scaffolding: PosteriorSamples(...) in the original


sampler = NumpyroSampler()  # scaffolding
lcs = [Lightcurve(s) for s in range(3)]  # scaffolding: three padded light curves of the same shape
for lc in lcs:  # scaffolding: one fit per light curve, as the fitting scripts do
    sampler.run_single_curve(lc, ZTF_PRIORS, rng_seed=0)
_report({"jit(lax_helper_function)"}, len(lcs))  # scaffolding
