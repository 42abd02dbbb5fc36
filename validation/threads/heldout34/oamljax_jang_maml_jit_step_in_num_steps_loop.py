# source: https://github.com/sebamenabar/oaml-jax/blob/3ea596bc2543e636ecc9cdef89893870fb230f6d/nbs/jang_maml.ipynb
# expect: jit-in-loop-or-body at line 71
# runtime: COMPILES 9 CALLS 195
# why: Inside the loop over num_steps the learner rebuilds the network, loss and optimizer and re-decorates step with @jit, so the identical training step is compiled again for each of the 9 settings.

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
# --- cell 1 ---
import jax.numpy as np
from jax import grad

# --- cell 3 (matplotlib dropped) ---
from jax import random
from jax import vmap # for auto-vectorizing functions
from functools import partial # for use with vmap
from jax import jit # for compiling functions for speedup
from jax.example_libraries import stax # neural network library  (changed: jax.experimental.stax in 2020)
from jax.example_libraries.stax import Conv, Dense, MaxPool, Relu, Flatten, LogSoftmax # neural network layers

# --- cell 6 (plotting dropped) ---
xrange_inputs = np.linspace(-5,5,100).reshape((100, 1)) # (k, 1)
targets = np.sin(xrange_inputs)

# --- cell 7 ---
import numpy as onp
from jax.example_libraries import optimizers  # (changed: jax.experimental.optimizers in 2020)

# --- cell 8 (plotting dropped) ---
rng = random.PRNGKey(0)
for num_steps in [1, 2, 3, 4, 5, 10, 20, 50, 100]:  # (tqdm dropped)
    
    net_init, net_apply = stax.serial(
        Dense(40), Relu,
        Dense(40), Relu,
        Dense(1)
    )
    
    in_shape = (-1, 1,)
    out_shape, net_params = net_init(rng, in_shape)
    
    def loss(params, inputs, targets):
        # Computes average loss for the batch
        predictions = net_apply(params, inputs)
        return np.mean((targets - predictions)**2)
    
    opt_init, opt_update, get_params = optimizers.adam(step_size=1e-2)
    opt_state = opt_init(net_params)
    
    # Define a compiled update step
    @jit
    def step(i, opt_state, x1, y1):
        p = get_params(opt_state)
        g = grad(loss)(p, x1, y1)
        return opt_update(i, g, opt_state)
    
    for i in range(num_steps):
        opt_state = step(i, opt_state, xrange_inputs, targets)
    net_params = get_params(opt_state)

    # batch the inference across K=100
    targets = np.sin(xrange_inputs)
    predictions = vmap(partial(net_apply, net_params))(xrange_inputs)
    losses = vmap(partial(loss, net_params))(xrange_inputs, targets) # per-input loss
_report({"jit(step)"}, 195)  # scaffolding: 1+2+3+4+5+10+20+50+100 step calls
