# source: https://github.com/PredictiveIntelligenceLab/CausalPINNs/blob/0d1d83f87f6fa2d6756d0e35cac94a7be6183841/Allen_Cahn/AC.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The causal PINN's methods are all jitted with static `self` (hashed by id, one model object) and step/loss call the other jitted methods inside their traces; the step counter is a Python int passed as a traced argument and self.tol is never changed after construction, so the training loop compiles step once.

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
import numpy as onp
import jax.numpy as np
from jax import random, grad, vmap, jit
from jax.example_libraries import optimizers
from jax.flatten_util import ravel_pytree
from jax import lax

import itertools
from functools import partial
from tqdm import trange


_CALLS = [0]  # scaffolding
# Define MLP with exact periodicity 
def MLP(layers, L=1.0, M=1, activation=np.tanh):

    def input_encoding(t, x):
        w = 2.0 * np.pi / L
        k = np.arange(1, M + 1)
        out = np.hstack([t, 1, 
                         np.cos(k * w * x), np.sin(k * w * x)])
        return out
   
    def init(rng_key):
      def init_layer(key, d_in, d_out):
          k1, k2 = random.split(key)
          glorot_stddev = 1.0 / np.sqrt((d_in + d_out) / 2.)
          W = glorot_stddev * random.normal(k1, (d_in, d_out))
          b = np.zeros(d_out)
          return W, b
      key, *keys = random.split(rng_key, len(layers))
      params = list(map(init_layer, keys, layers[:-1], layers[1:]))
      return params

    def apply(params, inputs):
        t = inputs[0]
        x = inputs[1]
        H = input_encoding(t, x)
        for W, b in params[:-1]:
            outputs = np.dot(H, W) + b
            H = activation(outputs)
        W, b = params[-1]
        outputs = np.dot(H, W) + b
        return outputs
    
    return init, apply
# Define the model
class PINN:
    def __init__(self, key, layers, M, state0, t0, t1, n_t, n_x, tol):  

        # collocation points
        self.t0 = t0
        self.t1 = t1
        self.t_r   = np.linspace(self.t0, self.t1, n_t)
        self.x_r = np.linspace(-1, 1, n_x)
        
        # For computing the temporal weights
        self.M = np.triu(np.ones((n_t, n_t)), k=1).T
        self.tol = tol

        # IC
        t_ic = np.zeros((x_star.shape[0], 1))
        x_ic = x_star.reshape(-1, 1)
        self.X_ic = np.hstack([t_ic, x_ic])
        self.Y_ic = state0
        
        # Initalize the network
        self.init, self.apply = MLP(layers, L=2.0, M=M, activation=np.tanh)
        params = self.init(rng_key = key)
        _, self.unravel = ravel_pytree(params)

        # Use optimizers to set optimizer initialization and update functions
        lr = optimizers.exponential_decay(1e-3, decay_steps=5000, decay_rate=0.9)
        self.opt_init, \
        self.opt_update, \
        self.get_params = optimizers.adam(lr)
        self.opt_state = self.opt_init(params) 

        # Evaluate the network and the residual over the grid
        self.u_pred_fn = vmap(vmap(self.neural_net, (None, 0, None)), (None, None, 0))  # consistent with the dataset
        self.r_pred_fn = vmap(vmap(self.residual_net, (None, None, 0)), (None, 0, None))

        # Logger
        self.itercount = itertools.count()

        self.loss_log = []
        self.loss_ics_log = []
        self.loss_res_log = []
        self.W_log = []
        self.L_t_log = []
    
    def neural_net(self, params, t, x):
        z = np.stack([t, x])
        outputs = self.apply(params, z)
        return outputs[0]

    def residual_net(self, params, t, x): 
        u = self.neural_net(params, t, x)
        u_t = grad(self.neural_net, argnums=1)(params, t, x)
        u_x = grad(self.neural_net, argnums=2)(params, t, x)
        u_xx = grad(grad(self.neural_net, argnums = 2), argnums=2)(params, t, x)
        return u_t + 5 * u**3 - 5 * u - nu * u_xx   

    @partial(jit, static_argnums=(0,))
    def residuals_and_weights(self, params, tol):
        r_pred = self.r_pred_fn(params, self.t_r, self.x_r)
        L_t = np.mean(r_pred**2, axis=1)
        W = lax.stop_gradient(np.exp(- tol * (self.M @ L_t)))
        return L_t, W

    @partial(jit, static_argnums=(0,))
    def loss_ics(self, params):
        # Evaluate the network over IC
        u_pred = vmap(self.neural_net, (None, 0, 0))(params, self.X_ic[:,0], self.X_ic[:,1])
        # Compute the initial loss
        loss_ics = np.mean((self.Y_ic.flatten() - u_pred.flatten())**2)
        return loss_ics

    @partial(jit, static_argnums=(0,))
    def loss_res(self, params): 
        r_pred = self.r_pred_fn(params, self.t_r, self.x_r)
        # Compute loss
        loss_r = np.mean(r_pred**2)
        return loss_r  

    @partial(jit, static_argnums=(0,))  
    def loss(self, params):
        L0 = 100 * self.loss_ics(params)
        L_t, W = self.residuals_and_weights(params, self.tol)
        # Compute loss
        loss = np.mean(W * L_t) + L0
        return loss

    # Define a compiled update step
    @partial(jit, static_argnums=(0,))
    def step(self, i, opt_state):
        params = self.get_params(opt_state)
        g = grad(self.loss)(params)

        return self.opt_update(i, g, opt_state)

    # Optimize parameters in a loop
    def train(self, nIter = 10000):
        pbar = range(nIter)  # scaffolding: trange(nIter)
        # Main training loop
        for it in pbar:
            self.current_count = next(self.itercount)
            self.opt_state = self.step(self.current_count, self.opt_state)
            _CALLS[0] += 1  # scaffolding
            
            if it % 1000 == 0:
                params = self.get_params(self.opt_state)

                loss_value = self.loss(params)
                loss_ics_value = self.loss_ics(params)
                loss_res_value = self.loss_res(params)
                L_t_value, W_value = self.residuals_and_weights(params, self.tol)

                self.loss_log.append(loss_value)
                self.loss_ics_log.append(loss_ics_value)
                self.loss_res_log.append(loss_res_value)
                self.W_log.append(W_value)
                self.L_t_log.append(L_t_value)

                print({'Loss': float(loss_value)})  # scaffolding: pbar.set_postfix
           

# load the data
usol = onp.cos(onp.pi * onp.linspace(-1, 1, 64))[:, None] * onp.ones((1, 11))  # scaffolding: stand-in for scipy.io.loadmat('AC.mat')['uu']

# Grid
t_star = onp.linspace(0, 1, 11)  # scaffolding: data['tt'][0]
x_star = onp.linspace(-1, 1, 64)  # scaffolding: data['x'][0]
TT, XX = np.meshgrid(t_star, x_star)

 # Create PINNs model
key = random.PRNGKey(1234)

# Network architecture
M = 10
d0 = M * 2 + 2
layers = [d0, 32, 32, 1]  # scaffolding: [d0, 128, 128, 128, 128, 1]

# hpyer-parameters
nu = 0.0001
t0 = 0.0
t1 = 1.0
n_t = 10  # scaffolding: 100
n_x = 32  # scaffolding: 256
tol = 100

state0 = usol[:, 0:1]

model = PINN(key, layers, M, state0, t0, t1, n_t, n_x, tol)
# Train
model.train(nIter=6)  # scaffolding: nIter=300000
# Get trained network parameters
params = model.get_params(model.opt_state)
u_pred = model.u_pred_fn(params, t_star, x_star)
error = np.linalg.norm(u_pred - usol) / np.linalg.norm(usol) 
print('Relative l2 error: {:.3e}'.format(error))
L_t, W = model.residuals_and_weights(params, model.tol)
_report({"jit(step)"}, _CALLS[0])  # scaffolding
