# source: https://github.com/IPL-UV/rbig_jax/blob/7729080ae8ea660a9059532d1ab93f8538289f0a/notebooks/experimental/univariate_gauss.ipynb
# expect: shape-churn at line 173
# runtime: COMPILES 2 CALLS 24
# why: The training loop slices train_data[batch_index:batch_index+batch_size] over range(0, n_samples, batch_size) with n_samples = 1000 and batch_size = 128, so the last batch has 104 rows and the jitted step compiles a second time.

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
# jax packages
import jax
import jax.numpy as jnp
from typing import NamedTuple  # scaffolding
from jax.nn import log_softmax  # scaffolding
from jax.scipy.special import logsumexp  # scaffolding
from jax.scipy.stats import norm  # scaffolding: distrax.Normal in rbig_jax

import numpy as np
from functools import partial


# scaffolding: rbig_jax.transforms.parametric.mixture.gaussian at 7729080 (mixture_gaussian_cdf and
# mixture_gaussian_log_pdf, docstrings dropped, distrax Normal -> jax.scipy.stats.norm)
def mixture_gaussian_cdf(x, prior_logits, means, scales):
    x = jnp.expand_dims(x, axis=-1)
    prior_logits = jax.nn.log_softmax(prior_logits, axis=-1)
    log_cdfs = prior_logits + norm.logcdf(x, loc=means, scale=scales)
    log_cdfs = jax.nn.logsumexp(log_cdfs, axis=-1)
    return jnp.exp(log_cdfs)


mixture_gaussian_cdf_vectorized = jax.vmap(
    mixture_gaussian_cdf, in_axes=(0, None, None, None)
)


def mixture_gaussian_log_pdf(x, prior_logits, means, scales):
    x = jnp.expand_dims(x, axis=-1)
    prior_logits = log_softmax(prior_logits, axis=-1)
    log_pdfs = prior_logits + norm.logpdf(x, loc=means, scale=scales)
    log_pdf = logsumexp(log_pdfs, axis=-1)
    return log_pdf


mixture_gaussian_log_pdf_vectorized = jax.vmap(
    mixture_gaussian_log_pdf, in_axes=(0, None, None, None)
)


class MixtureParams(NamedTuple):  # scaffolding: rbig_jax's MixtureParams
    means: jnp.ndarray
    log_scales: jnp.ndarray
    prior_logits: jnp.ndarray


# get data
n_samples = 1_000
n_features = 1
data = np.random.RandomState(0).standard_t(3, size=n_samples)  # scaffolding: get_classic(n_samples)[:, 1]
X = jnp.array(data, dtype=jnp.float32)

# scaffolding: the sklearn GaussianMixture(n_components=20, covariance_type="diag") fit is replaced by
# fixed mixture parameters of the same shapes
n_components = 20
weights = np.ones(n_components) / n_components  # scaffolding
means = np.linspace(-3, 3, n_components)[None, :]  # scaffolding
covariances = np.ones((1, n_components))  # scaffolding

from jax import scipy

params = MixtureParams(
    means=jnp.array(means, dtype=jnp.float32),
    log_scales=jnp.array(jnp.log(jnp.sqrt(covariances)), dtype=jnp.float32),
    prior_logits=jnp.array(weights[None, :], dtype=jnp.float32),
)

def forward_and_log_det(params, inputs):
    # forward
    y = mixture_gaussian_cdf_vectorized(
        inputs, params.prior_logits, params.means, jnp.exp(params.log_scales)
    )
    
    # jacobian
    log_det = mixture_gaussian_log_pdf_vectorized(
        inputs, params.prior_logits, params.means, jnp.exp(params.log_scales)
    )
    return y, log_det

def log_prob(params, inputs):
    
    y, log_det = forward_and_log_det(params, inputs)
    # uniform nothing
    latent_prob = scipy.stats.uniform.logpdf(y)
    
    # log probability
    log_prob = latent_prob.sum(axis=1) + log_det.sum(axis=1)
    
    
    return log_prob

def nll_loss(params, inputs):
    
    # negative log-likelihood
    return - log_prob(params, inputs).mean()
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers in the notebook

lr = 0.05
epochs = 3  # scaffolding: 100 in the notebook
batch_size = 128


opt_init, opt_update, get_params = optimizers.adam(step_size=lr)
opt_state = opt_init(params)
X = np.array(data)

def step(i, opt_state, inputs):
    # get the parameters from the state
    params = get_params(opt_state)
    # calculate the loss AND the gradients
    loss, gradients = jax.value_and_grad(nll_loss)(params, inputs)
    
    # return loss AND new opt_state
    return loss, opt_update(i, gradients, opt_state)

# TO MAKE IT FAST
train_op = jax.jit(step)
import itertools
from jax import random


# initialize parameters
key = random.PRNGKey(123)
itercount = itertools.count()
permute_rng, rng = random.split(key)

train_data = jnp.array(X[:, None])

losses = list()
n_calls = 0  # scaffolding

for i in range(epochs):  # scaffolding: `pbar = tqdm.trange(epochs)` / `with pbar: for i in pbar:`

    # batch processing
    permute_rng, rng = random.split(rng)

    # randomly shuffle the data
    train_data = random.permutation(permute_rng, train_data)

    # Train
    avg_loss = []

    for batch_index in range(0, n_samples, batch_size):
        # compute loss
        loss, opt_state = train_op(
            next(itercount), 
            opt_state,
            train_data[batch_index:batch_index+batch_size],
        )
        n_calls += 1  # scaffolding
        
        
        # append batch
        avg_loss.append(float(loss))
    # average loss
    batch_loss = np.mean(np.stack(avg_loss))

    # Log losses
    losses.append(batch_loss)

_report({"jit(step)"}, n_calls)  # scaffolding
