# source: https://github.com/dorjeduck/pure-jax-mnist/blob/e16c719d63077c9c6bf74381d7d2309af6f5cf53/main.py
# expect: shape-churn at line 294
# runtime: COMPILES 2 CALLS 6
# why: the epoch loop slices train_images in steps of BATCH_SIZE, so the last slice has 96 rows (60000 = 468*128 + 96); the jitted update compiles twice, once for the full and once for the short batch (the reshape the author added for it keeps the short size).
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


# ---- models/mlp.py ----
import numpy as np
import jax
import jax.numpy as jnp

def init_mlp_params(layer_widths, key):
    """
    Initializes the parameters for a fully connected (dense) MLP model.
    
    Parameters:
    - layer_widths (list of int): Specifies the width of each layer, e.g., [784, 256, 128, 10]
    - key (jax.random.PRNGKey): JAX random key for parameter initialization

    Returns:
    - params (list of dict): List of dictionaries containing weights and biases for each layer
    """
    params = []
    keys = jax.random.split(key, len(layer_widths) - 1)  # Split key for each layer's parameters

    for n_in, n_out, k in zip(layer_widths[:-1], layer_widths[1:], keys):
        layer_params = {
            'weights': jax.random.normal(k, (n_in, n_out)) * np.sqrt(2.0 / n_in),
            'biases': jnp.ones(shape=(n_out,))
        }
        params.append(layer_params)
    
    return params

def mlp_forward(params, x):
    """
    Performs the forward pass through the MLP.
    
    Parameters:
    - params (list of dict): Model parameters initialized by init_mlp_params
    - x (jnp.ndarray): Input data

    Returns:
    - jnp.ndarray: Output of the model after the forward pass
    """
    *hidden_layers, last_layer = params

    # Forward pass through hidden layers with ReLU activation
    for layer in hidden_layers:
        x = jax.nn.relu(jnp.dot(x, layer['weights']) + layer['biases'])

    # Final layer with no activation (softmax typically applied after this in loss function)
    x = jnp.dot(x, last_layer['weights']) + last_layer['biases']
    return x

# ---- models/cnn.py ----
import jax
import jax.numpy as jnp

def init_cnn_params(key, input_shape=(1, 28, 28), num_classes=10):
    """
    Initializes the parameters for a CNN with two convolutional layers
    and two fully connected layers.
    
    Parameters:
    - key (jax.random.PRNGKey): JAX random key for parameter initialization
    - input_shape (tuple): Shape of the input images (default is (1, 28, 28) for MNIST)
    - num_classes (int): Number of output classes (default is 10 for MNIST)

    Returns:
    - params (dict): Dictionary containing weights and biases for each layer
    """
    keys = jax.random.split(key, 4)  # Split key for each layer's parameters

    params = {
        'conv1': {
            'weights': jax.random.normal(keys[0], (8, 1, 3, 3)) * jnp.sqrt(2 / (3 * 3 * 1)),  # 1 input channel
            'biases': jnp.zeros(8)
        },
        
        'conv2': {
            'weights': jax.random.normal(keys[1], (16, 8, 3, 3)) * jnp.sqrt(2 / (3 * 3 * 8)),  # 8 input channels
            'biases': jnp.zeros(16)
        },
        'fc1': {
            'weights': jax.random.normal(keys[2], (784, 128)) * jnp.sqrt(2 / 784),
            'biases': jnp.zeros(128)
        },
        'fc2': {
            'weights': jax.random.normal(keys[3], (128, num_classes)) * jnp.sqrt(2 / 128),
            'biases': jnp.zeros(num_classes)
        }
    }
    return params

@jax.jit
def cnn_forward(params, x):
    """
    Forward pass for the CNN model.
    
    Parameters:
    - params (dict): Model parameters initialized by init_cnn_params
    - x (jnp.ndarray): Input data (batch of images)

    Returns:
    - jnp.ndarray: Output of the model after the forward pass
    """
    # First Convolutional Layer + ReLU + 2x2 Max Pooling
    x = jax.lax.conv_general_dilated(
        x, params['conv1']['weights'], window_strides=(1, 1), padding='SAME'
    )
    x = x + params['conv1']['biases'][None, :, None, None]
    x = jax.nn.relu(x)
    
    # 2x2 max pooling applied strictly to spatial dimensions
    x = jax.lax.reduce_window(
        x, -jnp.inf, jax.lax.max,
        window_dimensions=(1, 1, 2, 2),  # Only pool over height and width
        window_strides=(1, 1, 2, 2),     # Stride only over height and width
        padding='VALID'
    )
    
    # Second Convolutional Layer + ReLU + 2x2 Max Pooling
    x = jax.lax.conv_general_dilated(
        x, params['conv2']['weights'], window_strides=(1, 1), padding='SAME'
    )
    x = x + params['conv2']['biases'][None, :, None, None]
    x = jax.nn.relu(x)
    
    # Apply 2x2 max pooling strictly to spatial dimensions
    x = jax.lax.reduce_window(
        x, -jnp.inf, jax.lax.max,
        window_dimensions=(1, 1, 2, 2),  # Only pool over height and width
        window_strides=(1, 1, 2, 2),     # Stride only over height and width
        padding='VALID'
    )
    
    # Flatten for fully connected layers
    x = x.reshape(x.shape[0], -1)  # Flatten to (batch_size, -1) to fit fc1
    
    # First Fully Connected Layer + ReLU
    x = jnp.dot(x, params['fc1']['weights']) + params['fc1']['biases']
    x = jax.nn.relu(x)

    # Second Fully Connected Layer (Output)
    x = jnp.dot(x, params['fc2']['weights']) + params['fc2']['biases']
    return x  # Softmax can be applied in the loss function

# ---- main.py ----
import argparse
# import torch  # scaffolding: not installed (only data/mnist_loader.py uses it)
# import torchvision  # scaffolding
# from torchvision import transforms  # scaffolding
import numpy as np
import jax
import jax.numpy as jnp
import tempfile  # scaffolding


class _Plt:  # scaffolding: stand-in for matplotlib.pyplot (not installed)
    def __getattr__(self, name):  # scaffolding
        return lambda *a, **k: None  # scaffolding


plt = _Plt()  # scaffolding
import time
import os

# from data.mnist_loader import load_mnist_data  # scaffolding: stand-in below
# from models.mlp import init_mlp_params, mlp_forward  # scaffolding: inlined above
# from models.cnn import init_cnn_params, cnn_forward  # scaffolding: inlined above
import sys  # scaffolding
sys.argv = ["main.py", "--model_type", "MLP", "--num_epochs", "2"]  # scaffolding: 100 -> 2 epochs
os.chdir(tempfile.mkdtemp())  # scaffolding: the plot goes to ./plots


def load_mnist_data(batch_size=128):  # scaffolding: stand-in for data/mnist_loader.py (torchvision MNIST as flat float arrays, one-hot labels)
    rng = np.random.RandomState(0)  # scaffolding
    n_train, n_test = 2 * batch_size + 96, 100  # scaffolding: 60000 = 468*128 + 96 in the real set
    tr = rng.uniform(-1, 1, size=(n_train, 784)).astype(np.float32)  # scaffolding
    te = rng.uniform(-1, 1, size=(n_test, 784)).astype(np.float32)  # scaffolding
    return tr, np.eye(10)[rng.randint(0, 10, n_train)], te, np.eye(10)[rng.randint(0, 10, n_test)]  # scaffolding

# Argument parsing for model type and number of epochs
parser = argparse.ArgumentParser(description="Train an MLP or CNN on MNIST dataset using JAX.")
parser.add_argument('--model_type', type=str, choices=['MLP', 'CNN'], default='MLP',
                    help="Specify the model type: 'MLP' for Multi-Layer Perceptron or 'CNN' for Convolutional Neural Network.")
parser.add_argument('--num_epochs', type=int, default=100, 
                    help="Specify the number of training epochs.")

args = parser.parse_args()

MODEL_TYPE = args.model_type  # Use the specified model type
NUM_EPOCHS = args.num_epochs  # Use the specified number of epochs

# Set parameters
BATCH_SIZE = 128
LEARNING_RATE = 0.001
PRINT_EVERY = 1
INPUT_SHAPE = (1, 28, 28)  # Shape of MNIST images

print("Loading MNIST data...")
# Load MNIST data
train_images, train_labels, test_images, test_labels = load_mnist_data(
    batch_size=BATCH_SIZE
)
print("Data loaded successfully.\n")

# Reshape the images for CNN if needed
if MODEL_TYPE == "CNN":
    train_images = train_images.reshape(-1, 1, 28, 28)
    test_images = test_images.reshape(-1, 1, 28, 28)

# Move data to the device (GPU or CPU) for efficient computation
train_images = jax.device_put(train_images)
train_labels = jax.device_put(train_labels)
test_images = jax.device_put(test_images)
test_labels = jax.device_put(test_labels)

# Initialize parameters based on the chosen model
print(f"Initializing {MODEL_TYPE} model parameters...")
key = jax.random.key(42)
if MODEL_TYPE == "MLP":
    layer_widths = [784, 256, 128, 10]
    params = init_mlp_params(layer_widths, key)
    forward = mlp_forward
elif MODEL_TYPE == "CNN":
    params = init_cnn_params(key, input_shape=INPUT_SHAPE, num_classes=10)
    forward = cnn_forward
else:
    raise ValueError("MODEL_TYPE must be 'MLP' or 'CNN'")
print(f"{MODEL_TYPE} model initialized.\n")


# Define the cross-entropy loss function
@jax.jit
def loss_fn(params, x, y):
    predictions = jax.nn.softmax(forward(params, x), axis=-1)
    return -jnp.mean(jnp.sum(y * jnp.log(predictions + 1e-10), axis=1))


# Update function using JAX's jit and grad
@jax.jit
def update(params, x, y, lr=LEARNING_RATE):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


# Define accuracy calculation
def compute_accuracy(params, x, y):
    logits = forward(params, x)
    predicted_classes = jnp.argmax(logits, axis=1)
    true_classes = jnp.argmax(y, axis=1)
    return jnp.mean(predicted_classes == true_classes)


print("Starting training...\n")
# Training loop
loss_history = []
accuracy_history = []

for epoch in range(NUM_EPOCHS):
    epoch_start_time = time.time()  # Record start time for the epoch

    # Training step
    for i in range(0, len(train_images), BATCH_SIZE):
        x_batch = train_images[i : i + BATCH_SIZE]
        y_batch = train_labels[i : i + BATCH_SIZE]

        # Ensure last batch size compatibility for CNN if smaller than BATCH_SIZE
        if MODEL_TYPE == "CNN" and x_batch.shape[0] != BATCH_SIZE:
            x_batch = x_batch.reshape(-1, 1, 28, 28)

        params = update(params, x_batch, y_batch)

    # Calculate epoch duration in seconds
    epoch_duration = time.time() - epoch_start_time

    # Evaluate loss on the full training set for monitoring
    current_loss = loss_fn(params, train_images, train_labels)
    loss_history.append(current_loss)

    # Evaluate accuracy on the test set
    test_accuracy = compute_accuracy(params, test_images, test_labels)
    accuracy_history.append(test_accuracy)

    # Print progress every PRINT_EVERY epochs
    if (epoch + 1) % PRINT_EVERY == 0:
        print(
            f"Epoch {epoch + 1}, Loss: {current_loss:.4f}, Test Accuracy: {test_accuracy * 100:.2f}%, Time per epoch: {epoch_duration:.2f} sec/epoch"
        )

print(f"Training complete. Final test accuracy: {test_accuracy * 100:.2f}%")


# Create results directory if it doesn't exist
os.makedirs("plots", exist_ok=True)

# Generate the filename using model type and number of epochs
filename = f"plots/{MODEL_TYPE}_epochs{NUM_EPOCHS:03}.png"

# Plotting the training loss and test accuracy
plt.figure(figsize=(12, 5))
plt.subplot(1, 2, 1)
plt.plot(loss_history)
plt.xlabel("Epoch")
plt.ylabel("Loss")
plt.title(f"{MODEL_TYPE} Training Loss")

plt.subplot(1, 2, 2)
plt.plot(accuracy_history)
plt.xlabel("Epoch")
plt.ylabel("Accuracy")
plt.title(f"{MODEL_TYPE} Test Accuracy")

# Save the plot with model name and number of epochs in the filename
plt.savefig(filename)
print(f"\nPlot showing Training Loss and Test Accuracy saved to {filename}")

# plt.show()
_report({"jit(update)"}, NUM_EPOCHS * 3)  # scaffolding: 3 batches per epoch
