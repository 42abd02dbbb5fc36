# source: https://github.com/mirkomanset/naml_exams/blob/1474b16c4f33d7d43dd5835c3995c50d35666925/notebooks/AA_22_23/Exam_2023_06_15.ipynb
# expect: jit-in-loop-or-body at line 48
# runtime: COMPILES 7 CALLS 6
# why: GD and GDM build df_jit = jax.jit(jax.grad(f, ...)) inside their bodies; jax.grad returns a new function object on every call, so each of the 6 GD/GDM runs over learning rates and momenta traces and compiles the gradient again (jax.jit(f) on the same f is reused).

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
# cell 25
import numpy as np
import jax
np.random.seed(0)
# cell 27
def f(x, y):
    return (x + 2 * y - 7) ** 2 + (2 * x + y - 5) ** 2
# cell 31
#Check with the numpy function
A = np.array([[10, 8],
              [8, 10]])
b = np.array([34, 38])

solution = np.linalg.solve(A, b)
x_min, y_min = solution
print(f"Minimum at: {solution} with value {f(x_min,y_min)}")
min = solution  # scaffolding: GD/GDM read a global `min` (the minimiser); the cell that bound it is not in the saved notebook
# cell 33
def GD(f, learning_rate, tol):
    df_jit = jax.jit(jax.grad(f, argnums=[0, 1]))
    f_jit = jax.jit(f)
    # random initial_guess
    x = np.random.randn(2)
    x_old = x.copy()
    max_iter = 200
    E_history = list()

    for i in range(max_iter):
        grad = np.array(df_jit(x[0], x[1]))
        x -= learning_rate * grad
        E = np.abs(f_jit(x[0], x[1]) - f_jit(x_old[0], x_old[1]))
        error = np.linalg.norm(x - min)
        E_history.append(error)
        if E < tol:
            break
        x_old = x.copy()

    print("tot_iter: %d" % i)
    return x, E_history
# cell 34
# Tolerance
tol = 1e-3

# Learning rates to test
learning_rates = [0.01, 0.1]
results = []

# Run Gradient Descent for each learning rate
for lr in learning_rates:
    x_min, history = GD(f, lr, tol)
    results.append({
        "lr": lr,
        "x_min": x_min,
        "history": history,
        "final_val": f(x_min[0], x_min[1])
    })
    print(f"Learning rate = {lr:.2f}")
    print(f"Minimum found at: {x_min}")
    print(f"Function value at minimum: {f(x_min[0], x_min[1]):.6f}\n")

# (convergence plot cut)
# cell 36
def GDM(f, learning_rate, momentum_coeff, tol):
    df_jit = jax.jit(jax.grad(f, argnums=[0, 1]))
    f_jit = jax.jit(f)
    # random initial_guess
    x = np.random.randn(2)
    x_old = x.copy()
    max_iter = 200
    E_history = list()

    momentum = np.zeros(x.shape)
    for i in range(max_iter):
        grad = np.array(df_jit(x[0], x[1]))
        momentum = momentum * momentum_coeff + grad
        x -= learning_rate * momentum
        E = np.abs(f_jit(x[0], x[1]) - f_jit(x_old[0], x_old[1]))
        error = np.linalg.norm(x - min)
        E_history.append(error)
        if E < tol:
            break
        x_old = x.copy()

    print("tot_iter: %d" % i)
    return x, E_history
# cell 38
# Define hyperparameter combinations
configs = [
    {"lr": 0.01, "mc": 0.5},
    {"lr": 0.1,  "mc": 0.5},
    {"lr": 0.01, "mc": 0.9},
    {"lr": 0.1,  "mc": 0.9},
]

tol = 1e-3
results = []

# Run GDM for each configuration
for config in configs:
    x_min, history = GDM(f, config["lr"], config["mc"], tol)
    results.append({
        "lr": config["lr"],
        "mc": config["mc"],
        "x_min": x_min,
        "history": history,
        "final_val": f(x_min[0], x_min[1])
    })
    print(f"Learning rate = {config['lr']:.2f}, Momentum = {config['mc']:.1f}")
    print(f"Minimum found at: {x_min}")
    print(f"Function value at minimum: {f(x_min[0], x_min[1])}")
    print()

# (plot cut)
_report({"jit(f)"}, len(learning_rates) + len(configs))  # scaffolding: calls = GD/GDM calls, each building new jit wrappers
