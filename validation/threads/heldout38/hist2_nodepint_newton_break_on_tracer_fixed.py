# source: https://github.com/ddrous/nodepint/compare/dec77eb19bba4d0967045b24686684be6496f363...42ce0ea1b6e1245b0192e912e037f6d0aaeab086
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: At 42ce0ea the early break on the tracer is commented out (later replaced by lax.while_loop with a 'not jit-friendly' note); the jitted Newton loop traces with static maxiter and the four calls compile once.

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
# nodepint/pint.py of ddrous/nodepint at 42ce0ea (the fix: newton_root_finder with the early break commented out; shooting function and training loop replaced by scaffolding)
import jax
import jax.numpy as jnp
from functools import partial

import numpy as np


def shooting_function(Z, z0, nb_splits, times, rhs, integrator):  # scaffolding: stand-in with the same signature (a simple root problem)
    return Z ** 2 - integrator(rhs, z0, times)


def rhs(z, t):  # scaffolding
    return 2.0 + 0.0 * z


def euler_integrator(func, y0, t):  # scaffolding
    return func(y0, t[0])


## Newton's method - TODO we still need to define:
# - custom JVP rule https://jax.readthedocs.io/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html
# - example of fixed-point interation in PyTorch http://implicit-layers-tutorial.org/deep_equilibrium_models/
@partial(jax.jit, static_argnums=(0, 3, 4, 5, 6, 7, 8, 9))
def newton_root_finder(func, B0, z0, nb_splits, times, rhs, integrator, learning_rate, tol, maxiter):
# learning_rate=1., tol=1e-6, maxiter=3):
    grad = jax.jacfwd(func)

    B = B0

    ## Check if times contains numpy arrays and convert to floats
    if isinstance(times[0], np.float64):
        times = tuple(map(lambda x: float(x), times))

    # shape = B.shape
    # Nnz = shape[0]*shape[1]

    ## Print func name and its arguments
    # print("Function name: ", func.__name__, "\nLocal vars: ", func.__code__.co_varnames, "\nFreevars: ", func.__code__.co_freevars)

    # times = jnp.array(times)[:, jnp.newaxis]
    # func(B, z0, nb_splits, times, rhs, integrator)

    for k in range(maxiter):
        # grad_inv = jnp.linalg.inv(grad(B, z0).reshape((Nnz, Nnz)))
        # func_eval = func(B, z0).reshape((Nnz, 1))

        # print("Types of all arguments: ", type(rhs), type(B), type(z0), type(times), type(times[0]), type(integrator))

        print("PinT iteration counter: ", k)
        grad_inv = jnp.linalg.inv(grad(B, z0, nb_splits, times, rhs, integrator))
        func_eval = func(B, z0, nb_splits, times, rhs, integrator)

        B_new = B - learning_rate * grad_inv @ func_eval
        # B_new = B - learning_rate * func_eval

        # if jnp.linalg.norm(B_new - B) < tol:
        #     break
        B = B_new

    # print("Shape of the returned B is: ", B.shape)

    return B        ## TODO B is currentlyb of size N \times nz, but should only be of size nz


times = tuple(np.linspace(0, 1, 11).flatten())  # scaffolding: as in examples/neural_ode/01_mnist.py
n_calls = 0  # scaffolding
try:  # scaffolding
    for z0 in jnp.ones((4, 3)):  # scaffolding: one root-finding call per data point
        B = newton_root_finder(shooting_function, jnp.ones(3), z0, 2, times, rhs, euler_integrator, 1., 1e-6, 5)
        n_calls += 1  # scaffolding
    _report({"jit(newton_root_finder)"}, n_calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
