# source: https://github.com/elizavetasemenova/PriorCVAE_JAX/blob/6be491e3303e85aaa030b7aa20d123e00eee70ff/experiments/notebooks/zimbabwe/zimbabwe_gp_cvae_inference_normalised_RBF.ipynb
# expect: stale-closure at line 177
# runtime: ERROR ConcretizationTypeError
# why: model_gp writes the sampled lengthscale into the kernel object (kernel.lengthscale = lengthscale) while NUTS traces it under jit, so the kernel passed to mcmc_gp.run keeps a leaked tracer and pickle.dump(mcmc_gp) raises ConcretizationTypeError, as the notebook recorded.
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
# cell 1
import random
import time

# import tikzplotlib  # scaffolding: not installed, unused in these cells
import numpy as np
# import geopandas as gpd  # scaffolding: not installed; a stand-in for the geojson data below
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed; plotting lines cut below
import jax
import jax.numpy as jnp
import numpyro.distributions as npdist
import numpyro
from numpyro.infer import Predictive, init_to_median, MCMC, NUTS


# import jax.config as config  # scaffolding: the jax.config module is not importable on jax 0.10.2
config = jax.config  # scaffolding: same object
config.update("jax_enable_x64", True)

# from priorCVAE.priors import SquaredExponential  # scaffolding: the repo's kernel is inlined below
# from experiments.zimbabwe_utility import read_data  # scaffolding: stand-in below (reads a geojson)

numpyro.set_host_device_count(4)

# import yaml  # scaffolding: unused in these cells
import flax.linen as nn
# from priorCVAE.models import MLPDecoder  # scaffolding: unused in these cells (the CVAE part comes later)
# from priorCVAE.utility import load_model_params  # scaffolding: unused in these cells

import os
from os import listdir

from scipy.stats import gaussian_kde

# how to save an MCMC object?
# import dill  # scaffolding: not installed, unused in these cells
import pickle


# ---- priorCVAE/utility.py and priorCVAE/priors/kernels.py at 6be491e (the repo's own package) ----
from abc import ABC, abstractmethod


def sq_euclidean_dist(x: jnp.ndarray, y: jnp.ndarray, jitter: float = 1e-10) -> jnp.ndarray:
    assert isinstance(x, jnp.ndarray) and isinstance(y, jnp.ndarray)
    if len(x.shape) == 1:
        x = x.reshape(x.shape[0], 1)
    if len(y.shape) == 1:
        y = y.reshape(y.shape[0], 1)

    assert x.shape[-1] == y.shape[-1]

    dist = jnp.sum(jnp.square(x), axis=-1)[..., None] + jnp.sum(jnp.square(y), axis=-1)[..., None].T - 2 * jnp.dot(x,
                                                                                                                   y.T)
    dist += jitter
    return dist


class Kernel(ABC):
    def __init__(self, lengthscale: float = 1.0, variance: float = 1.0):
        self.lengthscale = lengthscale
        self.variance = variance

    @abstractmethod
    def __call__(self, x1, x2):
        pass

    def _handle_input_shape(self, x: jnp.ndarray) -> jnp.ndarray:
        if len(x.shape) == 1:
            x = x[..., None]
        if len(x.shape) > 2:
            raise Exception("Kernel only supports calculations with the input of shape (N, D).")
        return x

    def _scale_by_lengthscale(self, x: jnp.ndarray) -> jnp.ndarray:
        return x / self.lengthscale


class SquaredExponential(Kernel):
    def __init__(self, lengthscale: float = 1.0, variance: float = 1.0):
        super().__init__(lengthscale, variance)

    def __call__(self, x1: jnp.ndarray, x2: jnp.ndarray) -> jnp.ndarray:
        x1 = self._handle_input_shape(x1)
        x2 = self._handle_input_shape(x2)
        assert x1.shape[-1] == x2.shape[-1]
        x1 = self._scale_by_lengthscale(x1)
        x2 = self._scale_by_lengthscale(x2)
        dist = sq_euclidean_dist(x1, x2)
        k = self.variance * jnp.exp(-0.5 * dist)
        assert k.shape == (x1.shape[0], x2.shape[0])
        return k


class _Col(np.ndarray):  # scaffolding: a pandas Series stand-in (round() works on it)
    def __round__(self, ndigits=0):  # scaffolding
        return np.round(np.asarray(self), ndigits)  # scaffolding


class _Frame(dict):  # scaffolding: minimal stand-in for the (Geo)DataFrame columns the cells use
    __getattr__ = dict.__getitem__  # scaffolding


_N_AREAS = 12  # scaffolding: a small stand-in number of Zimbabwe districts
_rs = np.random.RandomState(0)  # scaffolding


class gpd:  # scaffolding: geopandas stand-in (the geojson file is not available)
    @staticmethod
    def read_file(path):  # scaffolding
        n_obs = _rs.uniform(50, 400, _N_AREAS)  # scaffolding
        return _Frame(area_id=np.arange(1, _N_AREAS + 1), n_obs=n_obs.view(_Col), y=(n_obs * _rs.uniform(0.05, 0.2, _N_AREAS)).view(_Col), estimate=_rs.uniform(0.05, 0.2, _N_AREAS).view(_Col))  # scaffolding


def read_data(data_path, normalize=True):  # scaffolding: normalised district centroids stand-in
    return jnp.array(_rs.uniform(0, 1, (_N_AREAS, 2))), _Frame()  # scaffolding


# cell 2
data_path = "../../zimbabwe/data/zwe2016phia.geojson"

#num_warmup = 5000
#num_samples = 50000

#num_warmup = 1000
#num_samples = 10000

num_warmup = 10
num_samples = 40
num_chains = 3

kernel_gp = SquaredExponential()
# cell 3
data = gpd.read_file(data_path)

# scaffolding: the cell's plotting lines (plt.subplots, data.plot, plt.show, plt.scatter, plt.axis) are cut

x, data_centroid = read_data(data_path, normalize=True)

## Adding estimate data
data_centroid["estimate"] = data["estimate"]
# cell 4
# scaffolding: plotting-only cell cut
# cell 5
data['y'] = round(data['y']).astype(int)
data['n_obs'] = round(data['n_obs']).astype(int)
# cell 6
def model_gp(x, n_obs=None, kernel=kernel_gp, lengthscale=None, y=None):
    
    if lengthscale == None:
        lengthscale = numpyro.sample("lengthscale", npdist.Gamma(2.5, 10.0)) 
        
    kernel.lengthscale = lengthscale
    k = kernel(x, x)
    
    kernel_var = numpyro.sample("variance", npdist.Gamma(1.5, 1.5)) 
    N = x.shape[0]
    re_std = numpyro.sample('re_std', npdist.MultivariateNormal(loc=jnp.zeros(N), covariance_matrix=k))
    re = numpyro.deterministic('re', kernel_var * re_std)
    
    theta = numpyro.deterministic("theta", jax.nn.sigmoid(re))
    
    numpyro.sample("obs", npdist.BinomialLogits(total_count = n_obs, logits=re), obs=y)
# cell 7
rng_key, rng_key_ = jax.random.split(jax.random.PRNGKey(random.randint(0, 9999)))
gp_predictive = Predictive(model_gp, num_samples=5000)
gp_preds = gp_predictive(rng_key_, x=x, n_obs = jnp.array(data.n_obs))

ls_prior_draws = gp_preds['lengthscale']
# scaffolding: plt.hist / plt.title / plt.show cut

kernel_var_prior = gp_preds['variance']
# scaffolding: plt.hist / plt.title / plt.show cut
# cell 8
rng_key = jax.random.PRNGKey(425657678)

start = time.time()
mcmc_gp_model = NUTS(model_gp)
mcmc_gp = MCMC(mcmc_gp_model, num_warmup=num_warmup, num_samples=num_samples, num_chains=num_chains)
mcmc_gp.run(rng_key, x=x, n_obs = jnp.array(data.n_obs), y = jnp.array(data.y), kernel=SquaredExponential())
t_elapsed = time.time() - start
# cell 9
mcmc_gp.print_summary()
# cell 10
fname = 'mcmc_fits/tmp_gp.pkl'

try:  # scaffolding
    import io  # scaffolding
    file = io.BytesIO()  # scaffolding: stands in for open(fname, 'wb'), no file written
    pickle.dump(mcmc_gp, file)
    _report({"jit(_body_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
