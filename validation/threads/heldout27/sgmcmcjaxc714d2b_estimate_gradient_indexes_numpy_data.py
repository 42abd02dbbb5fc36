# source: https://github.com/jeremiecoullon/SGMCMCJax/commit/c714d2b766ce1ae7a515db0249da7898695d7320
# expect: trace-time-error at line 65
# runtime: ERROR TracerArrayConversionError
# why: data is a tuple of numpy arrays closed over by the jitted estimate_gradient; indexing a numpy array with the traced idx_batch makes numpy convert the tracer, which raises TracerArrayConversionError.
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


import numpy as np  # scaffolding: the fix commit's test builds the data with np.array
from collections import namedtuple

import jax.numpy as jnp
from jax import random, jit, lax
from jax import grad, vmap  # scaffolding: util.py's imports for build_grad_log_post
# from jax.tree_util import tree_flatten, tree_unflatten, tree_map, tree_multimap  # scaffolding: tree_multimap was removed from jax; only the CV/SVRG estimators (left out) use these


# sgmcmcjax/util.py
def build_grad_log_post(loglikelihood, logprior, data):
    if len(data)==1:
        batch_loglik = jit(vmap(loglikelihood, in_axes=(None, 0)))
    elif len(data)==2:
        batch_loglik = jit(vmap(loglikelihood, in_axes=(None, 0,0)))
    else:
        raise ValueError("Data must be a tuple of size 1 or 2")

    Ndata = data[0].shape[0]
    def log_post(param, *args):
        return logprior(param) + Ndata*jnp.mean(batch_loglik(param, *args), axis=0)

    grad_log_post = jit(grad(log_post))
    return grad_log_post


# sgmcmcjax/gradient_estimation.py
# standard gradient estimator
def build_gradient_estimation_fn(grad_log_post, data, batch_size):
    assert type(data) == tuple
    N_data, *_ = data[0].shape

    @jit
    def estimate_gradient(key, param):
        if (batch_size is None) or batch_size == N_data:
            return grad_log_post(param, *data)
        else:
            idx_batch = random.choice(key=key, a=jnp.arange(N_data), shape=(batch_size,))
            minibatch_data = tuple([elem[idx_batch] for elem in data])
            return grad_log_post(param, *minibatch_data)
    return estimate_gradient


# tests/models.py
# Parameter shape: array
def loglikelihood_array(theta, x):
    return -0.5*jnp.dot(x-theta, x-theta)

def logprior_array(theta):
    return -0.5*jnp.dot(theta, theta)*0.01

# generate dataset
N, D = 1000, 5
key = random.PRNGKey(0)
X_data = random.normal(key, shape=(N, D))


# the fix commit's test_standard_estimator_data_np_array, run against the code before it
params = jnp.zeros(D)
batch_size = int(0.1*X_data.shape[0])
data = (np.array(X_data),)
grad_log_post = build_grad_log_post(loglikelihood_array, logprior_array, data)
estimate_gradient_standard = build_gradient_estimation_fn(grad_log_post, data, batch_size)
try:  # scaffolding
    mygrad = estimate_gradient_standard(random.PRNGKey(0), params)
    mygrad = estimate_gradient_standard(random.PRNGKey(1), params)  # scaffolding: a second draw
    print(mygrad.shape)  # scaffolding
    _report({"jit(estimate_gradient)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
