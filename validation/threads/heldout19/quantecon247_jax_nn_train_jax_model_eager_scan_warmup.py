# source: https://github.com/QuantEcon/lecture-jax/pull/247
# expect: jit-in-loop-or-body at line 162
# runtime: COMPILES 2 CALLS 2
# why: The PR adds a warmup call to trigger JIT compilation before timing train_jax_model, but train_jax_model is not jitted: each call runs lax.scan eagerly over a fresh update closure, so the timed call compiles the scan again.
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
# QuantEcon/lecture-jax PR #247: lectures/jax_nn.md as of the PR (5576b14), the hand-coded gradient descent section; code cells in order, Keras and plotting cells cut
import numpy as np
import jax
import jax.numpy as jnp
from time import time
from typing import NamedTuple

class Config(NamedTuple):
    epochs: int = 4000             # Number of passes through the data set
    data_size: int = 400           # Sample size
    num_layers: int = 4            # Depth of the network
    output_dim: int = 10           # Output dimension k of input and hidden layers
    learning_rate: float = 0.001   # Learning rate for gradient descent

def generate_data(
        key: jax.Array,         # JAX random key
        config: Config,         # contains configuration data
        x_min: float = 0.0,     # Minimum x value
        x_max: float = 5.0      # Maximum x value
    ):
    """
    Generate synthetic regression data.
    Pure functional version using JAX random keys.
    """
    x = jnp.linspace(x_min, x_max, num=config.data_size)
    ϵ = 0.2 * jax.random.normal(key, shape=(config.data_size,))
    y = x**0.5 + jnp.sin(x) + ϵ
    # Return observations as column vectors
    x = jnp.reshape(x, (config.data_size, 1))
    y = jnp.reshape(y, (config.data_size, 1))
    return x, y

config = Config()  # from the lecture's Keras cell (the model build and Keras training cut)
key = jax.random.PRNGKey(1234)
key, subkey1, subkey2 = jax.random.split(key, 3)
x, y = generate_data(subkey1, config)
x_validate, y_validate = generate_data(subkey2, config)

def initialize_params(
        key: jax.Array,     # JAX random key
        config: Config      # contains configuration data
    ):
    """
    Generate an initial parameterization for a feed forward neural network.
    Pure functional version using JAX random keys.
    """
    k = config.output_dim
    shapes = (
        (1, k),  # W_0.shape
        (k, k),  # W_1.shape
        (k, k),  # W_2.shape
        (k, 1)   # W_3.shape
    )
    # A function to generate weight matrices using JAX random
    def w_init(key, m, n):
        return jax.random.normal(key, shape=(m, n)) * jnp.sqrt(2 / m)
    # Build list of dicts, each containing a (weight, bias) pair
    θ = []
    for w_shape in shapes:
        m, n = w_shape
        key, subkey = jax.random.split(key)
        layer_params = dict(W=w_init(subkey, m, n), b=jnp.ones((1, n)))
        θ.append(layer_params)
    return θ

@jax.jit
def f(
        θ: list,                        # Network parameters (pytree)
        x: jnp.ndarray,                 # Input data (row vector)
        σ: callable = jnp.tanh          # Activation function
    ):
    """
    Perform a forward pass over the network to evaluate f(θ, x).
    """
    *hidden, last = θ
    for layer in hidden:
        W, b = layer['W'], layer['b']
        x = σ(x @ W + b)
    W, b = last['W'], last['b']
    x = x @ W + b
    return x 

@jax.jit
def loss_fn(
        θ: list,            # Network parameters (pytree)
        x: jnp.ndarray,     # Input data
        y: jnp.ndarray      # Target data
    ):
    return jnp.mean((f(θ, x) - y)**2)

loss_gradient = jax.jit(jax.grad(loss_fn))

@jax.jit
def update_parameters(
        θ: list,            # Current parameters (pytree)
        x: jnp.ndarray,     # Input data
        y: jnp.ndarray,     # Target data
        config: Config      # contains configuration data
    ):
    """
    Update the parameter pytree using gradient descent.

    """
    λ = config.learning_rate
    # Specify the update rule
    def gradient_descent_step(p, g):
        """
        A rule for updating parameter vector p given gradient vector g.
        It will be applied to each leaf of the pytree of parameters.
        """
        return p - λ * g
    gradient = loss_gradient(θ, x, y)
    # Use tree.map to apply the update rule to the parameter vectors
    θ_new = jax.tree.map(gradient_descent_step, θ, gradient)
    return θ_new

def train_jax_model(
        θ: list,                    # Initial parameters (pytree)
        x: jnp.ndarray,             # Training input data
        y: jnp.ndarray,             # Training target data
        x_validate: jnp.ndarray,    # Validation input data
        y_validate: jnp.ndarray,    # Validation target data
        config: Config              # contains configuration data
    ):
    """
    Train model using gradient descent.

    """
    def update(θ, _):
        # Record losses
        train_loss = loss_fn(θ, x, y)
        val_loss = loss_fn(θ, x_validate, y_validate)
        # Update parameters
        θ_new = update_parameters(θ, x, y, config)
        return θ_new, (train_loss, val_loss)

    # Initialize with empty arrays
    θ_final, (training_losses, validation_losses) = jax.lax.scan(
        update, θ, None, length=config.epochs
    )
    return θ_final, training_losses, validation_losses

config = Config()
param_key = jax.random.PRNGKey(1234)
θ = initialize_params(param_key, config)

# Warmup run to trigger JIT compilation
θ_warmup, _, _ = train_jax_model(θ, x, y, x_validate, y_validate, config)

# Reset and time the actual run
θ = initialize_params(param_key, config)
start_time = time()
θ, training_loss, validation_loss = train_jax_model(
    θ, x, y, x_validate, y_validate, config
)
θ[0]['W'].block_until_ready()  # Ensure computation completes
jax_runtime = time() - start_time

jax_mse = loss_fn(θ, x_validate, y_validate)
print(f"Trained model with JAX in {jax_runtime:.2f} seconds.")
print(f"Final MSE on validation data = {jax_mse:.6f}")
_report({"jit(scan)"}, 2)  # scaffolding
