# source: https://github.com/FergusCurrie/dl-from-scratch/blob/41415726d7c22c44d6cfdca955427bc89b79c874/jax_nn.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 50
# why: A jax.jit-wrapped value_and_grad of a lambda closing over global data (with NumPy imported as jnp by a typo) is built once before the training loop and compiles once over 50 epochs.

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
import jax
import jax,numpy as jnp 

N_SAMPLES = 200
LAYERS = [1,10,10,10,1]
LEARNING_RATE = 0.1
N_EPOCHS = 50  # scaffolding: was 30_000
key = jax.random.PRNGKey(42)
keyy, xkey, ynoisekey = jax.random.split(key, 3)
x_samples = jax.random.uniform(xkey, (N_SAMPLES, 1), minval=0.0, maxval=2*jnp.pi)
y_samples = jnp.sin(x_samples) + jax.random.normal(ynoisekey, (N_SAMPLES, 1)) * 0.3
# weight init w glorot uniform
weight_matrices = []
bias_vectors = []
activation_functions = []
for (fan_in, fan_out) in zip(LAYERS[:-1], LAYERS[1:]):
    kernel_matrix_uniform_limit = jnp.sqrt(6 / (fan_in + fan_out))
    key , wkey = jax.random.split(key)
    W = jax.random.uniform(
        wkey, 
        (fan_in, fan_out), 
        minval=-kernel_matrix_uniform_limit, 
        maxval=kernel_matrix_uniform_limit
    )
    b = jnp.zeros(fan_out)
    weight_matrices.append(W)
    bias_vectors.append(b)
    activation_functions.append(jax.nn.sigmoid)
activation_functions[-1] = lambda x: x
def network_forward(x, weights, biases, activations):
    a = x
    for W,b,f in zip(weights, biases,activations):
        a = f(a @ W  + b)
    return a
def loss_forward(y_pred, y_true):
    delta = y_pred - y_true
    return 0.5 * jnp.mean(delta ** 2) 
import numpy as np
loss_and_grad_fun = jax.value_and_grad(
    lambda Ws, bs: loss_forward(
        network_forward(
            x_samples, Ws, bs, activation_functions
        ),
        y_samples
    ),
    argnums=(0,1) # which grads to track
)
initial_loss, (init_w_grad, init_bias_grad) = loss_and_grad_fun(weight_matrices, bias_vectors)
print(initial_loss)  # scaffolding: print
# would be really slow, use jit instead 
loss_and_grad_fun = jax.jit(loss_and_grad_fun)
# Training loop - jax does not allow array mutation
loss_history = []
weight_history = []
for epoch in range(N_EPOCHS):
    loss, (w_grad, b_grad) = loss_and_grad_fun(
        weight_matrices,
        bias_vectors,
    )
    # update is bit odd bc jax does not allow array mutation
    weight_matrices = jax.tree_util.tree_map( # scaffolding: jax.tree_map removed; PYTREE = collection of matrices that jax understands. 
        lambda W, W_grad: W - LEARNING_RATE * W_grad,
        weight_matrices,
        w_grad
    )
    bias_vectors = jax.tree_util.tree_map( # scaffolding: jax.tree_map removed; PYTREE = collection of matrices that jax understands. 
        lambda b, b_grad: b - LEARNING_RATE * b_grad,
        bias_vectors,
        b_grad
    )
    weight_history.append([np.array(w) for w in weight_matrices])
    
    if epoch % 10 == 0:  # scaffolding: was 1000
        print(f"epoch = {epoch} loss={loss}")
        
    loss_history.append(loss)
_report({"jit(<lambda>)"}, N_EPOCHS)  # scaffolding
