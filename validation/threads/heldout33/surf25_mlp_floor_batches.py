# source: https://github.com/Dcyaprogrammer/SURF-2025/blob/256bbe93737007b407b8e1f2832e666a4a4a72da/jax_tutorial.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 93
# why: Summer-research (SURF) student's JAX tutorial notebook: minibatches are cut with a loop-index slice shuffled_x[i*32:(i+1)*32], but num_batches = 1000 // 32 drops the remainder, so the jitted update (with a Python-float learning rate) compiles once.

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
# ---- jax_tutorial.ipynb cell 1
import jax
import jax.numpy as jnp
from jax import random, grad, jit, vmap

# 1. Define the Neural Network (MLP)
# JAX encourages pure functions, so parameters are explicitly passed.
def init_mlp_params(key, layer_sizes):
    """Initializes the weights and biases for an MLP."""
    params = []
    for i in range(len(layer_sizes) - 1):
        in_dim, out_dim = layer_sizes[i], layer_sizes[i+1]
        # Glorot initialization for weights
        std_dev = jnp.sqrt(2.0 / (in_dim + out_dim))
        key, subkey = random.split(key)
        weights = random.normal(subkey, (in_dim, out_dim)) * std_dev
        biases = jnp.zeros(out_dim)
        params.append({'weights': weights, 'biases': biases})
    return params

def mlp_forward(params, x):
    """Performs a forward pass through the MLP."""
    hidden_layers = params[:-1]
    output_layer = params[-1]

    for layer in hidden_layers:
        x = jnp.dot(x, layer['weights']) + layer['biases']
        x = jax.nn.relu(x) # ReLU activation for hidden layers

    # No activation for the output layer (e.g., for value prediction)
    output = jnp.dot(x, output_layer['weights']) + output_layer['biases']
    return output

# 2. Define the Loss Function (e.g., Mean Squared Error)
def mse_loss(params, x_batch, y_batch):
    """Calculates the Mean Squared Error loss."""
    predictions = mlp_forward(params, x_batch)
    return jnp.mean((predictions - y_batch)**2)

# 3. Define the Update Function (Gradient Descent)
# We'll JIT this for performance.
@jit
def update(params, x_batch, y_batch, learning_rate):
    """Computes gradients and updates parameters using Adam optimizer."""
    grads = grad(mse_loss)(params, x_batch, y_batch)

    # Simple SGD update for demonstration. For RL, you'd typically use Adam, RMSprop, etc.
    # In JAX, you'd implement Adam yourself or use a library like Optax.
    new_params = []
    for i in range(len(params)):
        new_weights = params[i]['weights'] - learning_rate * grads[i]['weights']
        new_biases = params[i]['biases'] - learning_rate * grads[i]['biases']
        new_params.append({'weights': new_weights, 'biases': new_biases})
    return new_params

# 4. Simulation of a Training Loop (for a value function example)
if __name__ == "__main__":
    # Hyperparameters
    input_dim = 10
    output_dim = 1 # e.g., predicting a single value
    hidden_layer_sizes = [64, 64]
    layer_sizes = [input_dim] + hidden_layer_sizes + [output_dim]
    learning_rate = 0.001
    num_epochs = 3  # scaffolding: the notebook trains 1000 epochs
    batch_size = 32

    # Initialize random key for parameter initialization and data generation
    key = random.PRNGKey(0)
    param_key, data_key = random.split(key)

    # Initialize MLP parameters
    params = init_mlp_params(param_key, layer_sizes)

    print("Initial parameters (weights of first layer):\n", params[0]['weights'][:2, :2])

    # Generate some dummy data (e.g., states and their true values)
    # In RL, x_batch would be states, and y_batch would be target values (e.g., Q-values, V-values)
    num_samples = 1000
    x_data = random.normal(data_key, (num_samples, input_dim))
    # A simple arbitrary function to generate target values for demonstration
    y_data = jnp.sum(x_data, axis=1, keepdims=True) * 0.5 + 2.0 + random.normal(data_key, (num_samples, 1)) * 0.1

    print(f"\nTraining an MLP with {layer_sizes} layers for {num_epochs} epochs...")

    # Training loop
    for epoch in range(num_epochs):
        # Create a new key for data shuffling/batching in each epoch
        data_key, _ = random.split(data_key)
        permutation = random.permutation(data_key, num_samples)
        shuffled_x = x_data[permutation]
        shuffled_y = y_data[permutation]

        epoch_loss = 0.0
        num_batches = num_samples // batch_size
        for i in range(num_batches):
            start_idx = i * batch_size
            end_idx = (i + 1) * batch_size
            batch_x = shuffled_x[start_idx:end_idx]
            batch_y = shuffled_y[start_idx:end_idx]

            params = update(params, batch_x, batch_y, learning_rate)
            epoch_loss += mse_loss(params, batch_x, batch_y)

        epoch_loss /= num_batches
        if (epoch + 1) % 100 == 0:
            print(f"Epoch {epoch + 1}/{num_epochs}, Loss: {epoch_loss:.4f}")

    print("\nTraining complete!")
    print("Final parameters (weights of first layer):\n", params[0]['weights'][:2, :2])

    # (prediction and vmap demo that follow in the cell dropped)
    _report({"jit(update)"}, num_epochs * num_batches)  # scaffolding
