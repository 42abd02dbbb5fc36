# source: https://github.com/jstac/ai_tools_for_econ/blob/a98c1b7f31b2aa9a7477135a88d38dc3e66fb104/dynamic_programming/policy_gradient_methods/wealth_grad_nn.md
# expect: none
# runtime: COMPILES 2 CALLS 100
# why: Here compute_lifetime_value is jitted with static_argnames=('path_length') (a plain string, accepted) and loss_function is not jitted, so path_length stays a concrete int; value_and_grad over the jitted function compiles two programs once (forward+JVP, transpose) and reuses them for every epoch.

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
# dynamic_programming/policy_gradient_methods/wealth_grad_nn.md of jstac/ai_tools_for_econ (MyST notebook: code cells in order, up to the training loop; markdown dropped)
# ---- cell
import jax
import jax.numpy as jnp
from jax import grad, jit, random
import optax
plt = None  # scaffolding: matplotlib is not installed here (the plots after training are cut)
from functools import partial
from typing import NamedTuple

# ---- cell
class Model(NamedTuple):
    """
    Stores parameters for the model.

    """
    γ = 2.0
    β = 0.95
    R = 1.01

# ---- cell
class LayerParams(NamedTuple):
    """
    Stores parameters for one layer of the neural network.

    """
    W: jnp.ndarray     # weights
    b: jnp.ndarray     # biases

# ---- cell
class Config:
    """
    Configuration and parameters for training the neural network.

    """
    seed = 42
    epochs = 100  # scaffolding: 100 epochs instead of 500
    path_length = 1000
    layer_sizes = 1, 8, 8, 1
    init_lr = 0.0015
    min_lr = 0.0001
    warmup_steps = 100
    decay_steps = 300

# ---- cell
def initialize_layer(in_dim, out_dim, key):
    """
    Initialize weights and biases for a single layer of a feedforward network.
    Use LeCun initialization.

    """
    s = jnp.sqrt(1.0 / in_dim)
    W = jax.random.normal(key, (in_dim, out_dim)) * s
    b = jnp.ones((out_dim,))
    return W, b

# ---- cell
def initialize_network(key, layer_sizes):
    """
    Build a network by initializing all of the parameters.
    A network is a list of tuples (W, b).

    """
    params = []
    # For all layers but the output 
    for i in range(len(layer_sizes) - 1):
        key, subkey = jax.random.split(key)
        layer = initialize_layer(
            layer_sizes[i],      # in dimension for layer
            layer_sizes[i + 1],  # out dimension for layer
            subkey 
        )
        params.append(layer)

    return params

# ---- cell
def forward(params, w):
    """
    Evaluate neural network policy: maps wealth to consumption rate c/w
    by running a forward pass through the network.

    """
    σ = jax.nn.selu         # Activation function
    x = jnp.array([w])      # Make state a 1D array
    # Forward pass through network
    for W, b in params[:-1]:
        x = σ(x @ W + b)
    # Output layer with sigmoid activation for consumption rate
    W, b = params[-1]
    x = jax.nn.sigmoid(x @ W + b)
    consumption_rate = x[0]
    return consumption_rate

# ---- cell
def u(c, γ):
    """ Utility function. """
    c = jnp.maximum(c, 1e-10)
    return c**(1 - γ) / (1 - γ)

# ---- cell
@partial(jax.jit, static_argnames=('path_length'))
def compute_lifetime_value(params, model, path_length):
    """
    Generate a path associated with the policy embedded in params
    and return its lifetime value.

    """
    γ, β, R = model.γ, model.β, model.R

    def update(t, state):
        w, value, discount = state
        consumption_rate = forward(params, w)
        c = consumption_rate * w
        
        # Ensure feasible consumption
        c = jnp.minimum(c, w - 1e-10)
        
        # Update state
        w = jnp.maximum(R * (w - c), 0.0)
        value = value + discount * u(c, γ) 
        discount = discount * β
        new_state = w, value, discount
        return new_state
    
    initial_w, initial_value, initial_discount = 1.0, 0.0, 1.0
    initial_state = initial_w, initial_value, initial_discount
    final_w, final_value, discount = jax.lax.fori_loop(
            0, path_length, update, initial_state
        )
    return final_value

# ---- cell
def loss_function(params, model, path_length):

    return - compute_lifetime_value(params, model, path_length)

# ---- cell
def create_lr_schedule():
    warmup_fn = optax.linear_schedule(
        init_value=0.0,
        end_value=Config.init_lr,
        transition_steps=Config.warmup_steps
    )
    
    decay_fn = optax.exponential_decay(
        init_value=Config.init_lr,
        transition_steps=Config.decay_steps,
        decay_rate=0.5,
        end_value=Config.min_lr
    )
    
    return optax.join_schedules(
        schedules=[warmup_fn, decay_fn],
        boundaries=[Config.warmup_steps]
    )

# ---- cell
model = Model()
γ, β, R = model.γ, model.β, model.R
seed, epochs = Config.seed, Config.epochs
path_length = Config.path_length
layer_sizes = Config.layer_sizes

# ---- cell
# Test stability
assert β * R**(1 - γ) < 1, "Parameters fail stability test."

# ---- cell
κ = 1 - (β * R**(1 - γ))**(1/γ)
v_max = κ**(-γ) * u(1.0, γ)
print(f"Maximum possible lifetime value = {v_max}.\n")

# ---- cell
# Optimizer
lr_schedule = create_lr_schedule()
optimizer = optax.chain(
    optax.clip_by_global_norm(1.0),  # Gradient clipping for stability
    optax.adam(learning_rate=lr_schedule)
)

# ---- cell
# Initialize neural network parameters
key = random.PRNGKey(seed)
params = initialize_network(key, layer_sizes)
opt_state = optimizer.init(params)

# ---- cell
value_history = []
for i in range(epochs):
    
    # Compute value and gradients at existing parameterization
    loss, grads = jax.value_and_grad(loss_function)(params, model, path_length)
    lifetime_value = - loss
    
    # Update parameters using optimizer
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    
    # Store history
    value_history.append(lifetime_value)
    
    if i % 100 == 0:
        print(f"Iteration {i}: Value = {lifetime_value:.4f}")


print(f"\nFinal value: {value_history[-1]:.4f}")

_report({"jit(compute_lifetime_value)"}, epochs)  # scaffolding
