# source: https://github.com/LeCAR-Lab/CoVO-MPC/blob/3837a7a1a557a04d7a921e882c895325bee725b3/quadjax/devel/3dpendulum.ipynb
# expect: trace-time-error at line 53
# runtime: ERROR TypeError
# why: generate_samples is jitted without static_argnums, so the sample count N is traced and random.split(key, N) needs a concrete shape: TypeError 'Shapes must be 1D sequences of concrete values', as the notebook's output shows.
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
# scaffolding: cells 1-2 (quadrotor-pendulum dynamics built with trajax, not installed) are cut; cell 3 is self-contained
# cell 3
import jax
import jax.numpy as np
from jax import random

@jax.jit
def generate_samples(key, mean, covariance, N):
    """
    Function to generate samples from multivariate normal.

    Parameters:
    key : random.PRNGKey
        The random key to use.

    mean : np.ndarray, shape: (H, 2)
        The means for each multivariate normal.

    covariance : np.ndarray, shape: (H, 2, 2)
        The covariance matrices for each multivariate normal.

    N : int
        The number of samples to generate.

    Returns:
    np.ndarray, shape: (N, H, 2)
       The generated samples.
    """
    key = random.split(key, N)

    single_sample = lambda key: jax.random.multivariate_normal(key, mean=mean, cov=covariance)
    
    samples = jax.vmap(single_sample)(key)

    return samples

H = 10
key = random.PRNGKey(0)
mean = np.ones((H, 2))
covariance = np.eye(2).reshape((1, 2, 2)) * np.ones((H, 1, 1))
N = 100

try:  # scaffolding
    samples = generate_samples(key, mean, covariance, N)
    print(samples.shape)  # Should print: (N, H, 2)
    _report({"jit(generate_samples)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
