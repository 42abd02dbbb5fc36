# source: https://github.com/MatthieuDarcy/Kernel-NeuralNetworks-SPDEs/blob/4d799ffba29143a174fee3bbe46e97987448a7c2/Rough-Spatial/linear_1d/linear_1d_pinn.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 10
# why: train_step reads the globals f_observed, loss_fn and neural_network, which cells 14-15 redefine, but cell 16 re-decorates a new train_step, so the second training loop traces against the new globals (one compile per definition, results not stale).

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


# cell 2
import jax
jax.config.update("jax_enable_x64", True) # Enable 64-bit double precision

# Imports
import jax.numpy as jnp
from jax.numpy import fft
from jax import random, vmap, jit, grad
import jax.scipy as scipy

import time

from jax import jit, grad, vmap, hessian, value_and_grad
import optax


# from utils_DST import discrete_sine_transform, compute_sine_coefficients  -- inlined from utils/utils_DST.py  # scaffolding
def discrete_sine_transform(y):  # scaffolding
    n = y.shape[0]
    y_extended = jnp.concatenate([jnp.zeros(1), y, jnp.zeros(1), -y[::-1]])
    y_fft = jnp.fft.fft(y_extended)/2
    return (-y_fft.imag)[1: n+1]*jnp.sqrt(2)


def compute_sine_coefficients(y):  # scaffolding
    n = y.shape[0]
    return discrete_sine_transform(y)/(n+1)


# cell 4
# Define a simple neural network
def init_params(layer_sizes, key):
    params = []
    keys = random.split(key, len(layer_sizes))
    for m, n, key in zip(layer_sizes[:-1], layer_sizes[1:], keys):
        weights = random.normal(key, (m, n)) * jnp.sqrt(2 / m)
        biases = jnp.zeros(n)
        params.append((weights, biases))
    return params

# Draw random samples for the RF part
n_samples = 24
d_in = 1
key = random.PRNGKey(0)
key, subkey = random.split(key)
sigma_rff = 5.0
random_features = random.normal(subkey, shape = (n_samples, d_in))*sigma_rff

def feature_map(x, random_features):
    n_samples = random_features.shape[0]
    outputs = jnp.dot(random_features, x)
    return jnp.squeeze((1/jnp.sqrt(n_samples))*jnp.vstack([jnp.cos(outputs), jnp.sin(outputs)]))

def predict(params, x):
    activations = x
    # First pass through the feature map
    activations = feature_map(activations, random_features)
    for weights, biases in params[:-1]:
        activations = jnp.tanh(jnp.dot(activations, weights) + biases)
    final_weights, final_biases = params[-1]
    return jnp.squeeze(jnp.dot(activations, final_weights) + final_biases)

def count_parameters(params):
    total_params = 0
    for weights, biases in params:
        total_params += weights.size
        total_params += biases.size
    return total_params
# cell 5
# Generate a solution and forcing term
key = random.PRNGKey(635)
nu = 0.01


n_coef = 2**10  # scaffolding: 2**14 in the notebook
upper = 1.0
lower = 0.0
boundary = jnp.array([lower, upper])
boundary_conditions = jnp.array([0.0, 0.0])

domain_finest = jnp.linspace(lower,upper,n_coef+1, endpoint=False)[1:] # Do not include 0 or 1!
print("We use {} basis functions for the solution and the forcing term".format(n_coef))

frequencies = jnp.arange(0, n_coef) + 1
coef_f = jnp.hstack([random.normal(key, shape= (n_coef,))])
coef_u = coef_f/(nu*frequencies**2*jnp.pi**2 + 1)

f_values = discrete_sine_transform(coef_f)
u_values = discrete_sine_transform(coef_u)
# cell 7
n_meas = 2**8  # scaffolding: 2**12 in the notebook
print("We use {} test functions".format(n_meas))
domain_measurements = jnp.linspace(0,1, n_meas+1, endpoint=False)[1:] # Do not include 0 or 1!
f_observed =  coef_f[:n_meas]
# cell 8
s = 1.0 # Which negative Sobolev norm to use (s parameter in the paper)
decay = jnp.arange(1, n_meas+1)**(-s/2)

# Initialize the neural network
layer_sizes = [n_samples*2, 16, 16,  1]
key = random.PRNGKey(0)
params = init_params(layer_sizes, key)
print("There are {} parameters in the neural network.".format(count_parameters(params)))
neural_network = jit(vmap(predict, in_axes=(None, 0)))
neural_network_hess = jit(vmap(hessian(predict, argnums=-1), in_axes=(None, 0)))

# Define the loss function
def loss_fn(params, grid, boundary, f, boundary_conditions, nu, w = 1.0):
    u_grid = neural_network(params, grid)
    laplacian_grid = neural_network_hess(params, grid)
    # Compute the sine transform
    pred_sine = compute_sine_coefficients(-nu*laplacian_grid + u_grid)
    residual_interior = (pred_sine - f)*decay

    pred_boundary = neural_network(params, boundary)
    residual_boundary = pred_boundary - boundary_conditions
    return w*jnp.mean(residual_interior**2) + jnp.mean(residual_boundary**2)
# (eager value_and_grad check cut)  # scaffolding
# cell 9
# Define the learning rate scheduler
initial_learning_rate = 1e-3
num_epochs = 5  # scaffolding: 1e5 in the notebook
decay_steps = num_epochs/10
decay_rate = 0.9

learning_rate_schedule = optax.exponential_decay(
    init_value=initial_learning_rate,
    transition_steps=decay_steps,
    decay_rate=decay_rate,
    transition_begin=0,
    staircase=False
)
optimizer = optax.adam(learning_rate_schedule)
opt_state = optimizer.init(params)

@jit
def train_step(params, opt_state):
    loss, grads = value_and_grad(loss_fn)(params, domain_measurements, boundary, f_observed,boundary_conditions, nu, 1.0)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

# cell 10
loss_hist = []
for epoch in range(int(num_epochs)):
    params, opt_state, loss = train_step(params, opt_state)
    loss_hist.append(loss)
# cell 14
ratio = int(n_coef/n_meas)
f_observed =  f_values[::ratio]
# cell 15
key = random.PRNGKey(0)
params = init_params(layer_sizes, key)
print("There are {} parameters in the neural network.".format(count_parameters(params)))
neural_network = jit(vmap(predict, in_axes=(None, 0)))
neural_network_hess = jit(vmap(hessian(predict, argnums=-1), in_axes=(None, 0)))
# Define the loss function
def loss_fn(params, grid, boundary, f, boundary_conditions, nu, w = 1.0):
    u_grid = neural_network(params, grid)
    laplacian_grid = neural_network_hess(params, grid)
    # Compute the sine transform
    pred =-nu*laplacian_grid + u_grid
    residual_interior = (pred - f)

    pred_boundary = neural_network(params, boundary)
    residual_boundary = pred_boundary - boundary_conditions
    return w*jnp.mean(residual_interior**2) + jnp.mean(residual_boundary**2)

# (eager value_and_grad check cut)  # scaffolding
# cell 16
# Define the learning rate scheduler
initial_learning_rate = 1e-3
num_epochs = 5  # scaffolding: 1e5 in the notebook
decay_steps = num_epochs/10
decay_rate = 0.9

learning_rate_schedule = optax.exponential_decay(
    init_value=initial_learning_rate,
    transition_steps=decay_steps,
    decay_rate=decay_rate,
    transition_begin=0,
    staircase=False
)
optimizer = optax.adam(learning_rate_schedule)
opt_state = optimizer.init(params)

@jit
def train_step(params, opt_state):
    loss, grads = value_and_grad(loss_fn)(params, domain_measurements, boundary, f_observed,boundary_conditions, nu, 1.0)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss
# cell 17
loss_hist = []
for epoch in range(int(num_epochs)):
    params, opt_state, loss = train_step(params, opt_state)
    loss_hist.append(loss)
# scaffolding: check the re-decorated train_step saw cell 14's f_observed and cell 15's loss_fn (not stale)
_fresh = float(jax.jit(loss_fn)(init_params(layer_sizes, random.PRNGKey(0)), domain_measurements, boundary, f_observed, boundary_conditions, nu))  # scaffolding
assert abs(float(loss_hist[0]) - _fresh) < 1e-9 * max(1.0, abs(_fresh)), (loss_hist[0], _fresh)  # scaffolding
_report({"jit(train_step)"}, 2 * num_epochs)  # scaffolding
