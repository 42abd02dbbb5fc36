# source: https://github.com/jonathan-hellwig/master_thesis/blob/1ba98863f8bc6afc66b16e73df84f88f055c4187/code/section_5/sde_model_error.ipynb
# expect: shape-churn at line 43
# runtime: COMPILES 4 CALLS 4
# why: calculate_error builds time = jnp.arange(0, final_time, learning_rate) for each of the 4 learning rates, so the jitted, vmapped expected_first_order_loss gets a time grid of a new length (4, 8, 16, 32) on every call and compiles 4 times for 4 calls.
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
# cell 1
import jax
import jax.numpy as jnp
import jax.scipy.linalg as linalg
import jax.random as jr
# from helpers.noisy_gradient_descent import *  # scaffolding: the thesis' helpers package (not in the notebook); nothing from it is used in cells 2-3
# from helpers.gradient_descent import gradient_descent_update  # scaffolding: the thesis' helpers package (not in the notebook); nothing from it is used in cells 2-3
# from helpers.network import *  # scaffolding: the thesis' helpers package (not in the notebook); nothing from it is used in cells 2-3
# from helpers.stochastic_variance_amplified_gradient import *  # scaffolding: the thesis' helpers package (not in the notebook); nothing from it is used in cells 2-3
from tqdm import tqdm
from functools import partial
# cell 2


def calculate_error(learning_rates, sampled_values, expected_loss, x_0, H, final_time):
    error = []
    for learning_rate, sampled_value in zip(learning_rates, sampled_values):
        time = jnp.arange(0.0, final_time, learning_rate) + learning_rate
        expected_loss_value = expected_loss(
            time, x_0, H, learning_rate)
        error.append(jnp.max(jnp.abs(sampled_value - expected_loss_value)))
    return error


def fit_convergance_line(error, learning_rates):
    A = jnp.column_stack(
        (jnp.log(jnp.array(learning_rates)), jnp.ones((len(learning_rates), ))))
    log_error = jnp.log(jnp.array(error))
    coefficients, _, _, _ = jnp.linalg.lstsq(A, log_error)
    return coefficients


def sampled_loss(x, standard_normal_noise, H):
    return 0.5 * (x - standard_normal_noise).T @ H @ (x - standard_normal_noise) - 0.5 * jnp.trace(H)


@jax.jit
@partial(jax.vmap, in_axes=(0, None, None, None))
def expected_first_order_loss(time, initial_value, H, learning_rate):
    decay_term = 0.5 * initial_value.T @ H @ linalg.expm(
        -2.0 * time * H) @ initial_value
    # Eigenvalue in ascending order
    eigenvalues, _ = linalg.eigh(H)
    noise_term = 0.25 * learning_rate * jnp.sum(
        jnp.square(eigenvalues) * (1 - jnp.exp(-2.0 * time * eigenvalues)))
    return decay_term + noise_term


@jax.jit
@partial(jax.vmap, in_axes=(0, None, 0, None))
def stochastic_gradient_update(x, H, gamma, learning_rate):
    gradient = jax.grad(sampled_loss)(x, gamma, H)
    updated_x = x - learning_rate * gradient
    value = 0.5 * updated_x.T @ H @ updated_x
    return value, updated_x
# cell 3
key = jr.PRNGKey(4)
dimension = 3
initial_value_noise_scaling = 5.0
final_time = 2.0
number_of_samples = 1000  # scaffolding: 100000 sampled SGD paths in the notebook
learning_rates = 2.0**jnp.arange(-1, -5, -1)

H = jnp.identity(dimension)
key, subkey = jr.split(key)
x_0 = initial_value_noise_scaling * jr.normal(subkey,
                                                        (dimension,))
average_sampled_values = [[] for i in range(len(learning_rates))]
sampled_values = [[] for i in range(len(learning_rates))]
for index, learning_rate in enumerate(learning_rates):
    max_iterations = int(final_time / learning_rate)
    x = jnp.tile(x_0, (number_of_samples, 1))
    for _ in tqdm(range(max_iterations)):
        key, subkey = jr.split(key)
        normal_noise = jr.normal(
            subkey, (number_of_samples, dimension))
        value, x = stochastic_gradient_update(x, H, normal_noise,
                                                learning_rate)
        average_sampled_values[index].append(jnp.average(value))
        sampled_values[index].append(value)
average_sampled_values = [jnp.array(sampled_value)
                    for sampled_value in average_sampled_values]
sampled_values = [jnp.array(sampled_value)
                  for sampled_value in sampled_values]
first_order_error = calculate_error(
    learning_rates, average_sampled_values, expected_first_order_loss, x_0, H, final_time)
print([float(e) for e in first_order_error])  # scaffolding
# cell 4
# scaffolding: plotting-only cell (matplotlib subplots of the SGD paths) cut
# cell 5
first_order_coefficients = fit_convergance_line(
    first_order_error, learning_rates)
print(f'Exponent: {first_order_coefficients[0]:.3f}')  # scaffolding: print() around the cell's f-string
# scaffolding: cell 6 (matplotlib figure) cut
_report({"jit(expected_first_order_loss)"}, len(learning_rates))  # scaffolding
