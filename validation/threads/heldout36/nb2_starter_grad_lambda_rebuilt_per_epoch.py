# source: https://github.com/bheemeshpujari63/Jax-FlAX-Starter-demo/blob/549da4c2ba210ee6ee07a346178f9abb319eaede/src/train.py
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: train_model jits compute_metrics once, then rebuilds grad_fn = jax.grad(lambda ...: compute_metrics(...)[0]) inside the epoch loop; the fresh lambda is only traced eagerly and the inner jitted function's compiled forward/backward are reused, so after the first epoch nothing recompiles.

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
import numpy as np  # scaffolding

# --- src/model.py ---
import flax.linen as nn

class CIFAR10_CNN(nn.Module):
    """CNN model for CIFAR-10 classification"""
    
    @nn.compact
    def __call__(self, x):
        # Input shape: (batch, height, width, channels)
        x = nn.Conv(features=32, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.max_pool(x, window_shape=(2, 2), strides=(2, 2))
        
        x = nn.Conv(features=64, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.max_pool(x, window_shape=(2, 2), strides=(2, 2))
        
        x = x.reshape((x.shape[0], -1))  # Flatten
        x = nn.Dense(features=256)(x)
        x = nn.relu(x)
        x = nn.Dense(features=10)(x)
        return x


# --- src/train.py ---
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

def train_model(model, X_train, y_train, X_val, y_val, epochs=5, batch_size=1000, learning_rate=0.001):
    """
    Train the model on CIFAR-10 data.
    
    Args:
        model: The model to train
        X_train: Training images
        y_train: Training labels
        X_val: Validation images
        y_val: Validation labels
        epochs: Number of training epochs
        batch_size: Number of samples per batch
        learning_rate: Learning rate for optimizer
        
    Returns:
        tuple: (trained state, training history)
    """
    rng = jax.random.PRNGKey(0)
    
    # Initialize parameters with correct input shape
    params = model.init(rng, jnp.ones([1, 32, 32, 3]))["params"]
    
    # Create optimizer
    optimizer = optax.adam(learning_rate=learning_rate)
    
    # Create training state
    state = train_state.TrainState.create(
        apply_fn=model.apply, params=params, tx=optimizer
    )
    
    # Track metrics
    history = {'train_loss': [], 'val_loss': [], 'train_acc': [], 'val_acc': []}
    
    # Define metrics function
    @jax.jit
    def compute_metrics(params, X, y):
        logits = model.apply({"params": params}, X)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
        accuracy = jnp.mean(jnp.argmax(logits, -1) == y)
        return loss, accuracy
    
    # Training loop
    print("Starting training...")
    for epoch in range(epochs):
        # Compute gradients and update parameters
        grad_fn = jax.grad(lambda p, x, y: compute_metrics(p, x, y)[0], has_aux=False)
        grads = grad_fn(state.params, X_train[:batch_size], y_train[:batch_size])
        _calls[0] += 1  # scaffolding
        state = state.apply_gradients(grads=grads)
        
        # Compute metrics
        train_loss, train_acc = compute_metrics(state.params, X_train[:batch_size], y_train[:batch_size])
        val_loss, val_acc = compute_metrics(state.params, X_val[:batch_size], y_val[:batch_size])
        
        # Store metrics
        history['train_loss'].append(float(train_loss))
        history['val_loss'].append(float(val_loss))
        history['train_acc'].append(float(train_acc))
        history['val_acc'].append(float(val_acc))
        
        # Print progress
        print(f"Epoch {epoch+1}/{epochs}: Train Loss: {train_loss:.4f}, Val Loss: {val_loss:.4f}")
        print(f"Train Acc: {train_acc:.2%}, Val Acc: {val_acc:.2%}\n")
    
    return state, history

# --- main.py (main() reduced to the training call; plotting/metrics cut) ---
_calls = [0]  # scaffolding: counts grad_fn calls
# scaffolding: stand-in for src/data.get_data() (CIFAR-10 download); random images, 300 train / 300 val
_r = np.random.default_rng(0)
X_train, y_train = _r.random((300, 32, 32, 3), dtype=np.float32), _r.integers(0, 10, size=(300,))
X_val, y_val = _r.random((300, 32, 32, 3), dtype=np.float32), _r.integers(0, 10, size=(300,))
model = CIFAR10_CNN()
state, history = train_model(
    model=model,
    X_train=X_train,
    y_train=y_train,
    X_val=X_val,
    y_val=y_val,
    epochs=3,  # scaffolding: epochs=5 in main.py
    batch_size=256,  # scaffolding: default 1000
)
_report({"jit(compute_metrics)"}, _calls[0])  # scaffolding
