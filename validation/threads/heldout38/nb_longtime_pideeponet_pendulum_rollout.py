# source: https://github.com/PredictiveIntelligenceLab/Long-time-Integration-PI-DeepONets/blob/b6ec2cef29cd62da5e7aef34f43ebd0a2ddcc4ba/pendulum/PI_DeepONet_pendulum.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: The long-time rollout feeds each window's last prediction back as the next input and grows s1_pred/s2_pred with np.hstack every step, but the arrays passed to the jitted predict_s (static self) are always np.tile(u0, (P_test, 1)) and the fixed y_star, so the growing history never reaches the jit and it compiles once.

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
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers (moved)
from jax.experimental.ode import odeint
from jax.nn import relu

from jax.flatten_util import ravel_pytree

import itertools
from functools import partial

_CALLS = [0]  # scaffolding

# Define the neural net
def MLP(layers, activation=relu):
  ''' Vanilla MLP'''
  def init(rng_key):
      def init_layer(key, d_in, d_out):
          k1, k2 = random.split(key)
          glorot_stddev = 1. / np.sqrt((d_in + d_out) / 2.)
          W = glorot_stddev * random.normal(k1, (d_in, d_out))
          b = np.zeros(d_out)
          return W, b
      key, *keys = random.split(rng_key, len(layers))
      params = list(map(init_layer, keys, layers[:-1], layers[1:]))
      return params
  def apply(params, inputs):
      for W, b in params[:-1]:
          outputs = np.dot(inputs, W) + b
          inputs = activation(outputs)
      W, b = params[-1]
      outputs = np.dot(inputs, W) + b
      return outputs
  return init, apply


# Define the modified neural net
def modified_deeponet(layers, activation=relu):
  def xavier_init(key, d_in, d_out):
      glorot_stddev = 1. / np.sqrt((d_in + d_out) / 2.)
      W = glorot_stddev * random.normal(key, (d_in, d_out))
      b = np.zeros(d_out)
      return W, b

  def init(rng_key):
      subkey1,  subkey2 = random.split(rng_key)
      U1, b1 =  xavier_init(subkey1, layers[0], layers[1])
      U2, b2 =  xavier_init(subkey2, layers[0], layers[1])
      def init_layer(key, d_in, d_out):
          k1, k2 = random.split(key)
          W, b = xavier_init(k1, d_in, d_out)
          return W, b
      key, *keys = random.split(rng_key, len(layers))
      params = list(map(init_layer, keys, layers[:-1], layers[1:]))
      return (params, U1, b1, U2, b2) 

  def apply(params, inputs):
      params, U1, b1, U2, b2 = params
      U = activation(np.dot(inputs, U1) + b1)
      V = activation(np.dot(inputs, U2) + b2)
      for W, b in params[:-1]:
          outputs = activation(np.dot(inputs, W) + b)
          inputs = np.multiply(outputs, U) + np.multiply(1 - outputs, V) 
      W, b = params[-1]
      outputs = np.dot(inputs, W) + b
      return outputs
  return init, apply
# Define the model
class PI_DeepONet:
    def __init__(self, branch_layers, trunk_layers):    
        # Network initialization and evaluation functions
        self.branch_init, self.branch_apply = modified_deeponet(branch_layers, activation=np.tanh)
        self.trunk_init, self.trunk_apply = modified_deeponet(trunk_layers, activation=np.tanh)

        # Initialize
        branch_params = self.branch_init(rng_key = random.PRNGKey(1234))
        trunk_params = self.trunk_init(rng_key = random.PRNGKey(4321))
        params = (branch_params, trunk_params)

        # Use optimizers to set optimizer initialization and update functions
        self.opt_init, \
        self.opt_update, \
        self.get_params = optimizers.adam(optimizers.exponential_decay(1e-3, 
                                                                      decay_steps=5000, 
                                                                      decay_rate=0.9))
        self.opt_state = self.opt_init(params)

        _, self.unravel = ravel_pytree(params)

        # Logger
        self.itercount = itertools.count()
        self.loss_log = []
        self.loss_ics_log = []
        self.loss_res_log = []

    # Define DeepONet architecture
    def operator_net(self, params, u, y):
        branch_params, trunk_params = params
        B = self.branch_apply(branch_params, u)
        T = self.trunk_apply(trunk_params, y)

        B1 = B[:100]
        B2 = B[100:]

        T1 = T[:100]
        T2 = T[100:]

        s1 = np.sum(B1 * T1)
        s2 = np.sum(B2 * T2)

        return s1, s2

    # (residual_net, losses, step and train cut: scaffolding)

    # Evaluates predictions at test points  
    @partial(jit, static_argnums=(0,))
    def predict_s(self, params, U_star, Y_star):
        s1_pred, s2_pred = vmap(self.operator_net, (None, 0, 0))(params, U_star, Y_star)
        return s1_pred, s2_pred

# Hyper-parameters for ODE system
b = 0.05
g = 9.81
l = 1
m = 1

def system(s, t):
  s1 = s[0]
  s2 = s[1]
  ds1_dt = s2
  ds2_dt =  - (b/m) * s2 - g * np.sin(s1)
  ds_dt = [ds1_dt, ds2_dt]
  return ds_dt


# Initialize model
branch_layers = [2, 100, 100, 100, 100, 100, 100, 200]
trunk_layers =  [1, 100, 100, 100, 100, 100, 100, 200]
model = PI_DeepONet(branch_layers, trunk_layers)
# Restore PI-DeepONet model parameters
pendulum_params = model.get_params(model.opt_state)  # scaffolding: unravel(np.load('pendulum_params.npy'))

# Create the test data
T = 20 # Final time  # scaffolding: 100
dt = 1.0 
N = int(T / dt)

u0 = np.array([1.0, 1.0]) # initial state
y =  np.linspace(0, int(N * dt), int(100 * N)) 
s_exact = odeint(system, u0, y)
# Long time model prediction
P_test = 100  
u0_star = np.tile(u0, (P_test, 1))
y_star = np.linspace(0, dt, P_test).reshape(-1, 1)

s1_pred_0, s2_pred_0 = model.predict_s(pendulum_params, u0_star, y_star)
_n = 1  # scaffolding
s1_pred = s1_pred_0
s2_pred = s2_pred_0

for k in range(1, N):
  u0 = np.hstack([s1_pred[-1], s2_pred[-1]])
  u_star = np.tile(u0, (P_test, 1))

  s1_pred_k, s2_pred_k = model.predict_s(pendulum_params, u_star, y_star)
  _n += 1  # scaffolding

  s1_pred = np.hstack([s1_pred, s1_pred_k])
  s2_pred = np.hstack([s2_pred, s2_pred_k])
# errors
error_s1 = np.linalg.norm(s_exact[:,0]  - s1_pred) / np.linalg.norm(s_exact[:,0])
error_s2 = np.linalg.norm(s_exact[:,1]  - s2_pred) / np.linalg.norm(s_exact[:,1])
print('error s1: {:.3e}, error s2: {:.3e}'.format(error_s1, error_s2))
_report({"jit(predict_s)"}, _n)  # scaffolding
