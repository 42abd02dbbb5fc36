# source: https://github.com/riberaborrell/playground-jax/blob/1909b05dd91ae2ec4d0af3e4b9d89cb3c012e871/notebooks/testing_sgd_sampled_loss_finite.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: loss_fn is rebound to jit(loss_fn) and then differentiated inside the jitted update_fn, which also takes the equinox model as a plain jax.jit argument; the inner jit is inlined into update_fn's trace and the model is a pytree of arrays, so only update_fn compiles, once for 10 steps.
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


# ---- src/playground_jax/models_equinox.py ----  # scaffolding: file marker
from collections.abc import Callable

from jax import numpy as jnp, random, nn
from jaxtyping import Array, PRNGKeyArray
import equinox as eqx

class Linear(eqx.Module):
    weight: Array
    bias: Array

    def __init__(self, in_size, out_size, key):
        wkey, bkey = random.split(key)
        self.weight = random.normal(wkey, (out_size, in_size))
        self.bias = random.normal(bkey, (out_size,))

    def __call__(self, x):
        return self.weight @ x + self.bias


class MLP(eqx.Module):
    """
    A simple Multilayer perceptor model.
    """

    layers: list

    def __init__(
        self,
        d_in: int,
        d_out: int,
        d_hidden: list,
        activation: Callable=nn.relu,
        final_activation: Callable=lambda x: x,
        *,
        key: PRNGKeyArray,
    ):

        sizes = [d_in] + list(d_hidden) + [d_out]
        n_layers = len(sizes) - 1
        subkeys = random.split(key, n_layers)

        self.layers = []

        for j in range(n_layers):

            # actiavtion function
            act = activation if j < n_layers - 1 else final_activation

            # linear layer
            self.layers += [eqx.nn.Linear(sizes[j], sizes[j+1], key=subkeys[j]), act]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class MLP_4layers(eqx.Module):
    layers: list

    def __init__(self, d_in, d_out, d_hidden, key):
        n_layers = 4
        subkeys = random.split(key, n_layers)

        # the layers contain trainable parameters.
        self.layers = [
            eqx.nn.Linear(d_in, d_hidden[0], key=subkeys[0]),
            eqx.nn.Linear(d_hidden[0], d_hidden[1], key=subkeys[1]),
            eqx.nn.Linear(d_hidden[1], d_hidden[2], key=subkeys[2]),
            eqx.nn.Linear(d_hidden[2], d_out, key=subkeys[3]),
        ]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = nn.tanh(layer(x))
        return self.layers[-1](x)

# ---- notebooks/testing_sgd_sampled_loss_finite.ipynb ----  # scaffolding: file marker
# cell 0
from time import time 

import jax.lax as lax
import jax.numpy as jnp
import jax.random as random
from jax import grad, value_and_grad, vmap, jit
import equinox as eqx
import optax
# import matplotlib.pyplot as plt  # scaffolding: no plotting

# from playground_jax.models_equinox import *  (defined above)  # scaffolding: flattened
# cell 1
# set a random key
key = random.PRNGKey(seed=1)
# cell 2
# parameters
d = 1
dt = 0.01
K = 100
N = 100
x_init = 0 * jnp.ones((K, d))
r_lim = 1
# cell 4
# model
key, subkey = random.split(key)
model = MLP_4layers(d_in=d, d_out=d, d_hidden=[32, 32, 32], key=subkey)

# evaluation data
x = jnp.expand_dims(jnp.linspace(-1, 1, 101), axis=-1)
y_init = vmap(model)(x)
# cell 6
lr = 1e-2
opt = optax.adam(learning_rate=lr)
opt_state = opt.init(model)
# cell 8

# cell 9
def loss_fn(model, key):

    def apply_fn(state):
    
        # unpack values
        xt, det_int, key = state
        d = xt.shape[0]

        # brownian motion
        key, subkey = random.split(key)
        eta = random.normal(key, (d,))     

        # sde update
        xt = xt + jnp.sqrt(dt) * eta

        # det girsanov integral
        u = model(xt)
        det_int = det_int + (jnp.linalg.norm(u) ** 2) * dt
    
        return xt, det_int, key

    def body_fn_loop(i, state):
        return apply_fn(state)

    def sample_fn_loop(x_init, key):
        return lax.fori_loop(0, N, body_fn_loop, (x_init, 0., key))

    def body_fn_scan(state, x):
        state = apply_fn(state)
        return state, None

    def sample_fn_scan(x_init, key):
        return lax.scan(body_fn_scan, init=(x_init, 0., key), xs=None, length=N)
        
    #sample_fn_loop = vmap(sample_fn_loop, in_axes=(0, 0), out_axes=0)
    sample_fn_scan = vmap(sample_fn_scan, in_axes=(0, 0), out_axes=0)        
    subkeys = random.split(key, K)
    #xt, det_int, key = sample_fn_loop(x_init, subkeys)
    (xt, det_int, key), _ = sample_fn_scan(x_init, subkeys)
    return det_int.mean(), (xt, key)

loss_fn = jit(loss_fn)
# cell 11
@jit
def update_fn(model, opt_state, key):
    
    # compute gradients and loss value
    (loss, data), grads = value_and_grad(loss_fn, has_aux=True)(model, key)

    # optimizer upate
    updates, opt_state = opt.update(grads, opt_state)
    model = optax.apply_updates(model, updates)
    return loss, model, opt_state
# cell 13
n_iter = int(1e1)
log_period_iter = int(1e1)
for i in range(n_iter):
    t0 = time()
    loss, model, opt_state = update_fn(model, opt_state, key)
    t1 = time()
    if i % log_period_iter == 0: 
        print('it: {:d}, loss: {:.3e}, time: {:.4f}s'.format(i, loss, t1-t0))
# cell 15
y_final = vmap(model)(x)
# fig, ax = plt.subplots(); ax.plot(x, y_init); ax.plot(x, y_final)  # scaffolding: no plotting
_report({"jit(loss_fn)", "jit(update_fn)"}, 10)  # scaffolding: 10 update_fn calls
# cell 16

