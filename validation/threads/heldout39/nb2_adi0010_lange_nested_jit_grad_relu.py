# source: https://github.com/Adi0010/Colab/blob/7e3abafc8133092014811daa4a34928db73fadd5/Jax.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: jit(grad(jit(ReLU))) nests one jit inside another and vmap_relu_layer builds a jit in its body, but the inner jit is inlined into the outer trace, the nested wrapper is called once, and the body-built wrapper is returned uncalled, so each jitted function compiles exactly once.
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
# Jax.ipynb of Adi0010/Colab (a learner's Colab following a "getting started with JAX" blog tutorial); %time magics turned into plain calls
# cell 1
import numpy as onp
import jax.numpy as np
from jax import grad, jit, vmap, value_and_grad
from jax import random

# Generate key which is used to generate random numbers
key = random.PRNGKey(1)
# cell 2
# Generate a random matrix
x = random.uniform(key, (1000, 1000))
# Compare running times of 3 different matrix multiplications
y = onp.dot(x, x)  # scaffolding: %time magic dropped
y = np.dot(x, x)  # scaffolding: %time magic dropped
# cell 3
def ReLU(x):
    """ Rectified Linear Unit (ReLU) activation function """
    return np.maximum(0, x)

jit_ReLU = jit(ReLU)
# cell 4
out = ReLU(x).block_until_ready()  # scaffolding: %time magic dropped
# Call jitted version to compile for evaluation time!
jit_ReLU(x).block_until_ready()  # scaffolding: %time magic dropped
out = jit_ReLU(x).block_until_ready()  # scaffolding: %time magic dropped
# cell 5
def FiniteDiffGrad(x):
    """ Compute the finite difference derivative approx for the ReLU"""
    return np.array((ReLU(x + 1e-3) - ReLU(x - 1e-3)) / (2 * 1e-3))

# Compare the Jax gradient with a finite difference approximation
print("Jax Grad: ", jit(grad(jit(ReLU)))(2.))
print("FD Gradient:", FiniteDiffGrad(2.))
# cell 6
batch_dim = 32
feature_dim = 100
hidden_dim = 512

# Generate a batch of vectors to process
X = random.normal(key, (batch_dim, feature_dim))

# Generate Gaussian weights and biases
params = [random.normal(key, (hidden_dim, feature_dim)),
          random.normal(key, (hidden_dim, ))] 

def relu_layer(params, x):
    """ Simple ReLu layer for single sample """
    return ReLU(np.dot(params[0], x) + params[1])

def batch_version_relu_layer(params, x):
    """ Error prone batch version """
    return ReLU(np.dot(X, params[0].T) + params[1])

def vmap_relu_layer(params, x):
    """ vmap version of the ReLU layer """
    return jit(vmap(relu_layer, in_axes=(None, 0), out_axes=0))

out = np.stack([relu_layer(params, X[i, :]) for i in range(X.shape[0])])
out = batch_version_relu_layer(params, X)
out = vmap_relu_layer(params, X)
_report({"jit(ReLU)", "jit(relu_layer)"}, 4)  # scaffolding: jit_ReLU twice, jit(grad(jit(ReLU))) once, vmap_relu_layer once
