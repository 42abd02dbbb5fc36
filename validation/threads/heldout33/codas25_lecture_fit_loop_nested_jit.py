# source: https://github.com/codas-hep-2025/codas-hep-2025-jit-compilation/blob/df42988b3197922ee639eb2fe6c6544f1b190770/lecture.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 500
# why: CoDaS-HEP 2025 lecture fit example: a jitted update calls the separately jitted `function` (with keyword arguments) inside grad, and runs 500 times in a Python loop; update compiles once.

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
import jax.numpy as jnp

jax.config.update("jax_platform_name", "cpu")
jax.config.update("jax_enable_x64", True)

# ---- lecture.ipynb cell 47
rng = jax.random.key(42)

true_a, true_b = 0.2, 1.1

# function that we want to fit
@jax.jit
def function(x, a, b):
    return b*x**2 - 4*a*x - b

# generate true data with some noise
def generate_data(rng):
    x_key, noise_key = jax.random.split(rng)

    xs = jax.random.uniform(x_key, (128, 1), minval=-3, maxval=3)
    noise = jax.random.normal(noise_key, (128, 1)) * 0.15

    ys = function(x=xs + noise, a=true_a, b=true_b)
    return xs, ys


# plot data
xs, ys = generate_data(rng=rng)
# (plt.scatter dropped)

# ---- cell 49
from typing import NamedTuple


# Just a struct that holds the parameters of the function
class Params(NamedTuple):
    a: jax.Array
    b: jax.Array


# Initialize parameters for the function (`a` and `b`)
def init(rng) -> Params:
    a_key, b_key = jax.random.split(rng)
    a = jax.random.normal(a_key, ())
    b = jax.random.normal(b_key, ())
    return Params(a, b)


# Compute the loss function (least squares error)
def loss(params: Params, x: jax.Array, y: jax.Array) -> jax.Array:
    pred = function(x=x, a=params.a, b=params.b)
    return jnp.mean((pred - y) ** 2)


# Perform one gradient descent update step on params using the given data. (~SGD)
@jax.jit
def update(params: Params, x: jax.Array, y: jax.Array) -> Params:
    # Computes the gradients of the loss function with respect to the parameters
    grads = jax.grad(loss)(params, x, y)

    # Define a step function that updates the parameters
    def step(param, grad):
      return param - 0.005 * grad  # 0.005 := learning rate

    # Apply the step function to each parameter
    return jax.tree.map(step, params, grads)


# Run the optimization
params = init(rng)
for _ in range(500):
    params = update(params, xs, ys)


print(f"True parameters  : a={true_a:.2f}, b={true_b:.2f}")
print(f"Fitted parameters: a={params.a:.2f}, b={params.b:.2f}")
# (plotting dropped)
_report({"jit(update)"}, 500)  # scaffolding
