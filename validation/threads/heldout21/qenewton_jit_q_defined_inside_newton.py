# source: https://jax.quantecon.org/newtons_method.html
# expect: jit-in-loop-or-body at line 40
# runtime: COMPILES 2 CALLS 10
# why: newton() builds a fresh jax.jit(q) (closing over a fresh lambda) on every call, so the lecture's second run 'to eliminate compile time' compiles q again: 2 compiles / 10 q calls.
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
import jax
import jax.numpy as jnp
# from scipy.optimize import root  # scaffolding: SciPy comparison left out
# import matplotlib.pyplot as plt  # scaffolding: not installed

def e(p, A, b, c):
    return jnp.exp(- A @ p) + c - b * jnp.sqrt(p)

def newton(f, x_0, tol=1e-5, max_iter=15):
    """
    A multivariate Newton root-finding routine.

    """
    x = x_0
    f_jac = jax.jacobian(f)
    @jax.jit
    def q(x):
        " Updates the current guess. "
        return x - jnp.linalg.solve(f_jac(x), f(x))
    error = tol + 1
    n = 0
    while error > tol:
        n += 1
        if(n > max_iter):
            raise Exception('Max iteration reached without convergence')
        y = q(x)
        error = jnp.linalg.norm(x - y)
        x = y
        print(f'iteration {n}, error = {error}')
    return x

dim = 300  # scaffolding: 5_000 in the lecture (CPU time)
seed = 32

# Create a random matrix A and normalize the rows to sum to one
key = jax.random.key(seed)
A = jax.random.uniform(key, [dim, dim])
s = jnp.sum(A, axis=0)
A = A / s

# Set up b and c
b = jnp.ones(dim)
c = jnp.ones(dim)

init_p = jnp.ones(dim)

# %%time  # scaffolding: cell magic
p = newton(lambda p: e(p, A, b, c), init_p).block_until_ready()

# %%time  # scaffolding: cell magic
p = newton(lambda p: e(p, A, b, c), init_p).block_until_ready()

_report({"jit(q)"}, 10)  # scaffolding: 5 Newton iterations (q calls) per newton() call, printed above
