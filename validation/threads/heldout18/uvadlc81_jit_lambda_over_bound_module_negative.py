# source: https://github.com/phlippe/uvadlc_notebooks/issues/81
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: jax.jit over a lambda that calls a bound flax module raised JaxTransformError in the issue; on jax 0.10.2/flax 0.12.8 it traces fine, bakes the bound params in as constants and compiles once for the loop.
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
from typing import Sequence
import jax
import jax.numpy as jnp
from jax import random
import numpy as np
import flax
from flax import linen as nn

tqdm = lambda it, leave=False: it  # scaffolding: tqdm stand-in
_r = np.random.RandomState(0)  # scaffolding
train_loader = [(_r.randn(256, 28, 28, 1).astype(np.float32), _r.randint(0, 10, 256)) for _ in range(4)]  # scaffolding: 4 FashionMNIST-sized batches
exmp_batch = train_loader[0]  # scaffolding: next(iter(small_loader))


class ReLU(nn.Module):
    
    def __call__(self, x):
        return jnp.maximum(x, 0)

# To keep the results close to the PyTorch tutorial, we use the same init function as PyTorch
# which is uniform(-1/sqrt(in_features), 1/sqrt(in_features)) - similar to He et al./kaiming
# The default for Flax is lecun_normal (i.e., half the variance of He) and zeros for bias.
init_func = lambda x: (lambda rng, shape, dtype: random.uniform(rng, 
                                                                shape=shape, 
                                                                minval=-1/np.sqrt(x.shape[1]), 
                                                                maxval=1/np.sqrt(x.shape[1]), 
                                                                dtype=dtype))

# Network
class BaseNetwork(nn.Module):
    act_fn : nn.Module
    num_classes : int = 10
    hidden_sizes : Sequence = (512, 256, 256, 128)
    
    @nn.compact
    def __call__(self, x, return_activations=False):
        x = x.reshape(x.shape[0], -1) # Reshape images to a flat vector
        # We collect all activations throughout the network for later visualizations
        # Remember that in jitted functions, unused tensors will anyways be removed.
        activations = []
        for hd in self.hidden_sizes:
            x = nn.Dense(hd,
                         kernel_init=init_func(x),
                         bias_init=init_func(x))(x)
            activations.append(x)
            x = self.act_fn(x)
            activations.append(x)
        x = nn.Dense(self.num_classes, 
                     kernel_init=init_func(x), 
                     bias_init=init_func(x))(x)
        return x if not return_activations else (x, activations)

def measure_number_dead_neurons(net):
    # For each neuron, we create a boolean variable initially set to 1. If it has an activation unequals 0 at any time,
    # we set this variable to 0. After running through the whole training set, only dead neurons will have a 1.
    neurons_dead = [
        jnp.ones(hd, dtype=jnp.dtype('bool')) for hd in net.hidden_sizes
    ] # Same shapes as hidden size in BaseNetwork

    get_activations = jax.jit(lambda inp: net(inp, return_activations=True)[1])
    for imgs, _ in tqdm(train_loader, leave=False): # Run through whole training set
        activations = get_activations(imgs)
        for layer_index, activ in enumerate(activations[1::2]):
            # Are all activations == 0 in the batch, and we did not record the opposite in the last batches?
            neurons_dead[layer_index] = jnp.logical_and(neurons_dead[layer_index], (activ == 0).all(axis=0))
    number_neurons_dead = [t.sum().item() for t in neurons_dead]
    print("Number of dead neurons:", number_neurons_dead)
    print("In percentage:", ", ".join([f"{num_dead / tens.shape[0]:4.2%}" for tens, num_dead in zip(neurons_dead, number_neurons_dead)]))


try:  # scaffolding
    net_relu = BaseNetwork(act_fn=ReLU())
    params = net_relu.init(random.PRNGKey(42), exmp_batch[0])
    measure_number_dead_neurons(net_relu.bind(params))
    _report({"jit(<lambda>)"}, len(train_loader))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
