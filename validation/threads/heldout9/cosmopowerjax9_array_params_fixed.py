# source: https://github.com/dpiras/cosmopower-jax/issues/9
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with the sampled parameters stacked into a jnp array (the reporter's fix) predict skips the NumPy dict conversion, the model traces cleanly and NUTS runs.

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
import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpyro
from numpyro import distributions as dist, infer
import numpy as np


class CPJ:  # scaffolding: stand-in for cosmopower_jax.cosmopower_jax.CosmoPowerJAX
    def __init__(self, probe):  # scaffolding
        self.probe = probe  # scaffolding
        self.parameters = ['omega_b', 'omega_cdm', 'h', 'tau_reio', 'n_s', 'ln10^{10}A_s']  # scaffolding
        self.n_parameters = len(self.parameters)  # scaffolding
        self.modes = np.arange(2, 50)  # scaffolding: 2..2508 in cosmopower-jax
        self.w = jax.random.normal(jax.random.PRNGKey(0), (len(self.modes), self.n_parameters)) * 1e-3  # scaffolding

    def _dict_to_ordered_arr_np(self,
                               input_dict,
                               ):
        if self.parameters is not None:
            return np.stack([input_dict[k] for k in self.parameters], axis=1)
        else:
            return np.stack([input_dict[k] for k in input_dict], axis=1)

    def _predict(self, input_vec):  # scaffolding: trained network replaced by a linear map
        return jnp.exp(jnp.dot(input_vec, self.w.T)).squeeze() * 1e-10  # scaffolding

    def predict(self, input_vec):
        # convert dict to array, if needed
        if isinstance(input_vec, dict):
            input_vec = self._dict_to_ordered_arr_np(input_vec)

        if len(input_vec.shape) == 1:
            input_vec = input_vec.reshape(-1, self.n_parameters)
        assert len(input_vec.shape) == 2
        predictions = self._predict(input_vec)  # scaffolding: weights arguments dropped
        return predictions


rng_key = jax.random.key(20240913)  # scaffolding: seeded from date.today() in the issue

tt_emulator = CPJ(probe='cmb_tt')
true_params = {
    "h": [0.67],
    "ln10^{10}A_s": [3.44],
    "omega_b": [0.02237],
    "omega_cdm": [0.1200],
    "n_s": [0.9649],
    "tau_reio": [0.0544],
}
tt_cl = tt_emulator.predict(true_params)
ell = tt_emulator.modes
tt_data = (2.7255*1e6)**2*ell*(ell+1)*tt_cl/(2*jnp.pi)
cinv = jnp.ones(len(ell))

def like(cinv,datavec=None):
    omega_cdm = numpyro.sample("omega_cdm", dist.Uniform(0.09, 0.15))
    omega_b = numpyro.sample("omega_b", dist.Uniform(0.017, 0.027))
    logA = numpyro.sample("logA", dist.Uniform(2.6, 3.5))
    h = numpyro.sample("h", dist.Uniform(0.6, 0.8))
    n_s = numpyro.sample("n_s", dist.Uniform(0.9, 1.0))
    tau = numpyro.sample("tau", dist.Uniform(0.03, 0.08))
    params = jnp.array([omega_b, omega_cdm, h, tau, n_s, logA])
    cl = tt_emulator.predict(params)
    model = (2.7255*1e6)**2*ell*(ell+1)*cl/(2*jnp.pi)
    numpyro.sample("obs", dist.Normal(model, 1/jnp.sqrt(cinv)), obs=datavec)

sampler = infer.MCMC(
    infer.NUTS(like),
    num_warmup=2,  # scaffolding
    num_samples=2,  # scaffolding
    progress_bar=False,  # scaffolding
)
sampler.run(rng_key, cinv, datavec=tt_data)
_report({"jit(_fori_collect_loop)"}, 1)  # scaffolding: the sampler loop compiles once
