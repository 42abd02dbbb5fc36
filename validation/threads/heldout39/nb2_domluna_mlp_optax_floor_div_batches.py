# source: https://github.com/domluna/learnjax/blob/c82db12e3033af99602558f8219c975a2c6506f7/Learn%20Jax%20The%20Way%20That%20Makes%20Sense%20To%20Nobody%20Else.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 21
# why: The minibatch loop slices X by hand like the ragged-batch cases, but num_batches = X.shape[0] // batch_size drops the 104-row remainder, and optimizer/gloss are fixed globals, so the jitted update compiles once for all calls.
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
# "Learn Jax The Way That Makes Sense To Nobody Else.ipynb" of domluna/learnjax (a learning notebook); cells 1 and 27
# cell 1
import jax
from jax.experimental import pallas as pl
import jax.numpy as jnp
import numpy as np
from jax import random
# cell 27
import optax

# Set random seed for reproducibility
key = random.PRNGKey(0)
# Define the number of examples and features
num_examples = 1000
num_features = 10
# Generate random feature values
key, subkey = random.split(key)
X = random.normal(subkey, (num_examples, num_features))
# Generate random coefficients for the linear relationship
key, subkey = random.split(key)
true_coefficients = random.normal(subkey, (num_features,))
# Generate random noise
key, subkey = random.split(key)
noise = random.normal(subkey, (num_examples,)) * 0.2
# Calculate the target values
y = jnp.dot(X, true_coefficients) + noise

key, subkey1, subkey2 = random.split(key, num=3)
W1 = jax.nn.initializers.xavier_normal()(subkey1, (10, 768))
b1 = jnp.zeros(768)
W2 = jax.nn.initializers.xavier_normal()(subkey2, (768, 1))
b2 = jnp.zeros(1)

def model(x, W1, b1, W2, b2):
    # the model is a 3 layer neural net with a relu activation
    h1 = jax.nn.gelu(x @ W1 + b1)
    h2 = h1 @ W2 + b2
    return jnp.squeeze(h2)
    
def loss(x, W1, b1, W2, b2, y):
    return jnp.mean(jnp.square(model(x, W1, b1, W2, b2) - y))

gloss = jax.value_and_grad(loss, argnums=(1, 2, 3, 4))
    
optimizer = optax.adam(learning_rate=6e-3)
opt_state = optimizer.init((W1, b1, W2, b2))

@jax.jit
def update(x, y, params, opt_state):
    (W1, b1, W2, b2) = params
    v, grads = gloss(x, W1, b1, W2, b2, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return v, params, opt_state

num_epochs = 3  # scaffolding: 1000 in the notebook
batch_size = 128
n_calls = 0  # scaffolding
for epoch in range(num_epochs):
    epoch_loss = 0.0
    num_batches = X.shape[0] // batch_size
    
    for i in range(num_batches):
        batch_start = i * batch_size
        batch_end = (i + 1) * batch_size
        x_batch = X[batch_start:batch_end]
        y_batch = y[batch_start:batch_end]
        
        l, (W1, b1, W2, b2), opt_state = update(x_batch, y_batch, (W1, b1, W2, b2), opt_state)
        n_calls += 1  # scaffolding
        
        epoch_loss += l
    
    epoch_loss /= num_batches
    print(f"Epoch {epoch+1}, Loss = {epoch_loss}")
_report({"jit(update)"}, n_calls)  # scaffolding
