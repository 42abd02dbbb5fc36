# source: https://github.com/jonathan-hellwig/master_thesis/blob/1ba98863f8bc6afc66b16e73df84f88f055c4187/code/section_5/ode_model_error.ipynb
# expect: shape-churn at line 114
# runtime: COMPILES 10 CALLS 20
# why: for each of the 10 learning rates the trajectory length max_iter = int(final_time / learning_rate) changes, so the jitted max_error gets (max_iter+1, 5) arrays of a new shape and compiles again every iteration: 10 compiles for 20 calls.
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
import jax.random as jr
import jax.scipy as jsc
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed; the plotting lines of cell 3 are cut
from functools import partial
import scipy.stats as stats

key = jr.PRNGKey(4)

n_weight = 4


def generate_data(key, n_data, n_weight):
    x_key, noise_key, weight_key = jr.split(key, 3)
    weights = jr.normal(weight_key, (1, n_weight))
    bias = 1.0
    x = jr.uniform(x_key, (n_data, n_weight))
    noise = jr.normal(noise_key, (n_data, 1))
    y = (weights * x).sum() + bias + noise
    return x, y


n_data = 1000
x, y = generate_data(key, n_data, n_weight)
X = jnp.column_stack((x, jnp.ones((n_data, 1))))

# cell 2
@partial(jax.vmap, in_axes=(0))
def expm(x):
    return jsc.linalg.expm(x)


@jax.jit
def loss(w, X, y):
    return 0.5 * jnp.mean((X @ w - y.reshape((-1, 1))) ** 2)


def update(carry, _):
    w_gd, learning_rate = carry
    grad = jax.grad(loss)(w_gd, X, y)
    w_gd = w_gd - learning_rate * grad
    return (w_gd, learning_rate), w_gd


def fit_convergance_line(error, learning_rates):
    A = jnp.column_stack(
        (jnp.log(jnp.array(learning_rates)), jnp.ones((len(learning_rates),)))
    )
    log_error = jnp.log(jnp.array(error))
    coefficients, _, _, _ = jnp.linalg.lstsq(A, log_error)
    return coefficients


@jax.jit
def max_error(x, y):
    return jnp.max((jnp.abs(jnp.linalg.norm(x, axis=1) - jnp.linalg.norm(y, axis=1))))

# cell 3
n_variables = n_weight + 1
w_0 = jnp.ones((n_variables, 1))
M = X.T @ X
w_star = jnp.linalg.solve(M, X.T @ y).reshape((-1, 1))

first_order_error = []
second_order_error = []
learning_rates = [0.2, 0.1, 0.05, 0.025,
                  0.01, 0.005, 0.0025, 0.00125, 0.000625, 0.0003125]
final_time = 1
results = []

for learning_rate in learning_rates:
    max_iter = int(final_time / learning_rate)

    # Analytical solution to the modified equation
    t = jnp.linspace(0, final_time,
                     max_iter+1).reshape((-1, 1, 1))
    w_first_order = (expm(-1/n_data * M * t) @
                     (w_0 - w_star) + w_star).reshape((-1, n_variables))
    w_second_order = (expm(-1/n_data * (M @ (jnp.eye(n_variables) + learning_rate/(2*n_data) * M)) * t) @
                      (w_0 - w_star) + w_star).reshape((-1, n_variables))

    # Gradient descent iterates
    _, iterates = jax.lax.scan(
        update, (w_0, learning_rate), jnp.arange(0, max_iter))

    w_gd = jnp.concatenate(
        (w_0.reshape((1, n_variables, 1)), iterates)).squeeze()
    first_order_error.append(max_error(w_gd, w_first_order))
    second_order_error.append(max_error(w_gd, w_second_order))

# scaffolding: the cell's plotting lines (fig, ax = plt.subplots() ... fig.savefig(...)) are cut
first_order, _ = fit_convergance_line(first_order_error, learning_rates)
second_order, _ = fit_convergance_line(second_order_error, learning_rates)
print(first_order.item(), second_order.item())  # scaffolding: print() around the cell's expression
_report({"jit(max_error)"}, 2 * len(learning_rates))  # scaffolding
