# source: https://github.com/rasutt/Toy-neural-network-in-jax/blob/3a1d5d8636f7408835087b93ce2c16143c7dc136/toynnjax/nn.py
# expect: none
# runtime: COMPILES 2 CALLS 11
# why: vloss_jit/vgrad_jit are jit(vmap(...)) built once at module level and the gradient-descent while-loop always draws n_samp = 101 points, so each compiles once for the whole loop (the first vloss_jit call on the full 101-point data has the same shape).

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
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random


# Function to split parameter vector into weight matrices and bias vectors
def par_split(par):
#     has to be this explicit to get jit to work
    n_h = 10
    W0 = par[:n_h].reshape(1, n_h)
    b0 = par[n_h:(2 * n_h)].reshape(1, n_h)
    W1 = par[(2 * n_h):(3 * n_h)].reshape(n_h, 1)
    b1 = par[(3 * n_h):].reshape(1, 1)
    return(W0, b0, W1, b1)

# Function to update RNG key and initialise weights and biases
def init_par(x, y, key, n_par):
    key, subkey = random.split(key)
    par = random.uniform(subkey, (n_par, )) * 2 - 1
    
#     Pytorch default (Kaimling) U(-sqrt(k), sqrt(k)), where k = number of inputs to layer
    n_h = (n_par - 1) // 3
    lay_2_idx = 2 * n_h
    par = par.at[lay_2_idx:].set(par[lay_2_idx:] / jnp.sqrt(n_h)) 

#     Return parameters and new RNG key
    return par, key


# Loss function
def loss(x, par, y):
    W0, b0, W1, b1 = par_split(par)
    N0 = jnp.maximum(x @ W0 + b0, 0)
    N1 = N0 @ W1 + b1
    return ((y - N1)**2).reshape(())

# Compiled vectorised loss and gradient functions
vloss_jit = jit(vmap(loss, in_axes = (0, None, 0)))
vgrad_jit = jit(vmap(grad(loss, argnums=(1)), in_axes = (0, None, 0)))

# Gradient descent function
def grad_desc(par, x, y, key, lr = 1e-5, max_it = int(5e2)):
    # Loss, iteration counter, frames for animation
    loss_vec = jnp.zeros(max_it)
    loss_vec = loss_vec.at[0].set(jnp.sum(vloss_jit(x, par, y)))
    count = 0
    tot_reinit = 0
    frame_list = []

    # Loop until change in loss smaller than tolerance or iteration limit reached
    while True:
        # Make an animation frame at regular intervals
        if (count % 20 == 0):
            pass  # scaffolding: frame_list = frame_list + [make_frame(par, x, y)] (matplotlib animation cut)

        key, subkey = random.split(key)
        n_samp = 101
        idx = random.choice(subkey, jnp.arange(101), shape=((n_samp, )), replace=False)
        x_samp = x[idx, 0].reshape(n_samp, 1)
        y_samp = y[idx, 0].reshape(n_samp, 1)

        # Find gradient over whole dataset
        par_g = jnp.sum(vgrad_jit(x_samp, par, y_samp), axis = 0)

        # Step down gradient
        par = par - lr * par_g

        # Update loss and iteration counter
        count = count + 1
        loss_vec = loss_vec.at[count].set(jnp.sum(vloss_jit(x_samp, par, y_samp)))

        if (count + 1 == max_it):
            print(f"Reached maximum number of iterations")
            break

    # Plot loss and learning animation
    # plot_loss(loss_vec); plot_animation(par, x, y, frame_list)  (plotting cut)

    # Return updated parameters
    return(par, key)


key = random.PRNGKey(0)  # scaffolding: stand-in for the notebook driver
x = jnp.linspace(-1, 1, 101).reshape(101, 1)
y = jnp.sin(3 * x)
par, key = init_par(x, y, key, 31)
max_it = 6
par, key = grad_desc(par, x, y, key, max_it=max_it)
_report({"jit(loss)"}, 1 + 2 * (max_it - 1))  # one vloss_jit call before the loop, then a vgrad_jit and a vloss_jit call in each of the max_it - 1 steps
