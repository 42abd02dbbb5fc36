# source: https://github.com/AleVerri-03/Study/blob/2a5513c2f97eb75b0863e2da2a007f094d1d2536/NAML/Labs/Lab05/LAB5_1.py
# expect: none
# runtime: COMPILES 6 CALLS 3300
# why: grad_func = jax.jit(jax.grad(func)) is rebuilt inside the loop over test functions, but each wrapper belongs to a different function and is then reused for hundreds of descent steps, so each function's gradient compiles once (plus one compile per jitted function for the direct calls in the line search).

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

# Set random seed for reproducibility
key = jax.random.PRNGKey(0)

    # Define the benchmark functions


# 1. Rastrigin function
@jax.jit
def rastrigin(x):
    return 10 * x.size + jnp.sum(x**2 - 10 * jnp.cos(2 * jnp.pi * x)) + 1e-10


# 2. Ackley function
@jax.jit
def ackley(x):
    a = 20
    b = 0.2
    c = 2 * jnp.pi
    sum1 = jnp.sum(x**2)
    sum2 = jnp.sum(jnp.cos(c * x))
    return (
        -a * jnp.exp(-b * jnp.sqrt(sum1 / x.size))
        - jnp.exp(sum2 / x.size)
        + a
        + jnp.exp(1)
    )


# 3. Quadratic function
quadratic_A = jnp.array([[3.0, 0.5], [0.5, 1.0]])
quadratic_b = jnp.array([-1.0, 2.0])
quadratic_c = jnp.dot(quadratic_b, jnp.linalg.solve(quadratic_A, quadratic_b)) / 2


@jax.jit
def quadratic(x):
    return (
        0.5 * jnp.dot(x.T, jnp.dot(quadratic_A, x))
        + jnp.dot(quadratic_b, x)
        + quadratic_c
    )

# Find the minimum of a function
def gradient_descent(grad_func, x0, lr=0.01, tol=1e-6, max_iter=1000):
    x = x0
    path = [x]
    for _ in range(max_iter):
        grad_val = grad_func(x) # calc gradient
        x = x - lr * grad_val # update x going opposite to the gradient
        path.append(x) # save new x to the path
        if jnp.linalg.norm(grad_val) < tol:
            break
    return x, path


def gradient_descent_backtracking(
    func, grad_func, x0, alpha=0.3, beta=0.8, tol=1e-6, max_iter=100
):
    x = x0
    path = [x]
    for _ in range(max_iter):
        grad_val = grad_func(x)
        t = 1.0 # initial step 
        while func(x - t * grad_val) > func(x) - alpha * t * jnp.dot( # Armijo condition
            grad_val, grad_val # We need that the new value is enough low   
        ):
            t *= beta
        x = x - t * grad_val # now we have a valid t, update x
        path.append(x)
        if jnp.linalg.norm(grad_val) < tol:
            break
    return x, path

# Specific for quadratic
def exact_line_search_quadratic(A, b, x0, tol=1e-6, max_iter=100):
    x = x0
    path = [x]
    for _ in range(max_iter):
        grad_val = jnp.dot(A, x) + b
        t = jnp.dot(grad_val, grad_val) / jnp.dot(grad_val, jnp.dot(A, grad_val)) # Calculate a specific t
        x -= t * grad_val
        path.append(x)
        if jnp.linalg.norm(grad_val) < tol:
            break
    return x, path


# --- Testing functions
x0 = jnp.array([4.0, 4.0])

test_functions = [
    (rastrigin, "Rastrigin"),
    (ackley, "Ackley"),
    (quadratic, "Quadratic"),
]

n_calls = 0  # scaffolding
for func, name in test_functions:
    grad_func = jax.jit(jax.grad(func))
    print(f"Testing on {name} function")

    x_gd, path_gd = gradient_descent(grad_func, x0)
    x_gd_bt, path_gd_bt = gradient_descent_backtracking(func, grad_func, x0)
    n_calls += (len(path_gd) - 1) + (len(path_gd_bt) - 1)  # scaffolding: grad_func calls
    # plot_optimization_2d(func, path_gd, path_gd_bt, title=f"{name}")  (matplotlib plot cut)

_report({"jit(rastrigin)", "jit(ackley)", "jit(quadratic)"}, n_calls)

