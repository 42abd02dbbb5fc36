# source: https://github.com/QuantEcon/lecture-python.myst/pull/564
# expect: jit-in-loop-or-body at line 68
# runtime: COMPILES 11 CALLS 8
# why: newton builds a fresh @jax.jit q (closing over the new f) on every call, so each of the 8 newton calls, 3 of them in a loop over starting values, traces and compiles q again (11 compiles).
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
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed; plotting cells are cut
from typing import NamedTuple
from scipy.optimize import root
import jax.numpy as jnp
import jax

# Enable 64-bit precision
jax.config.update("jax_enable_x64", True)

# cell 2
class SolowParameters(NamedTuple):
    A: float
    s: float
    α: float
    δ: float

# cell 3
def create_solow_params(A=2.0, s=0.3, α=0.3, δ=0.4):
    """Creates a Solow model parameterization with default values."""
    return SolowParameters(A=A, s=s, α=α, δ=δ)

# cell 4
def g(k, params):
    A, s, α, δ = params
    return A * s * k**α + (1 - δ) * k


def exact_fixed_point(params):
    A, s, α, δ = params
    return ((s * A) / δ) ** (1 / (1 - α))

# (cells 5-15: 45-degree plots, successive approximation and trajectory plots cut)  # scaffolding

# cell 16
def newton(f, x_0, tol=1e-7, max_iter=100_000):
    x = x_0
    Df = jax.grad(f)

    # Implement the zero-finding formula
    @jax.jit
    def q(x):
        return x - f(x) / Df(x)

    error = tol + 1
    n = 0
    while error > tol:
        n += 1
        if n > max_iter:
            raise Exception("Max iteration reached without convergence")
        y = q(x)
        error = jnp.abs(x - y)
        x = y
        print(f"iteration {n}, error = {error:.5f}")
    return x.item()

# cell 17
params = create_solow_params()
k_star_approx_newton = newton(f = lambda x: g(x, params) - x, x_0=0.8)

# cell 18
k_star_approx_newton

# cell 19
@jax.jit
def e(p, A, b, c):
    return jnp.exp(-A @ p) + c - b * jnp.sqrt(p)

# cell 20
A = jnp.array([[0.5, 0.4], [0.8, 0.2]])
b = jnp.ones(2)
c = jnp.ones(2)

# cell 21
p = jnp.array([1, 0.5])
ex_demand = e(p, A, b, c)

print(
    f"The excess demand for good 0 is {ex_demand[0]:.3f} \n"
    f"The excess demand for good 1 is {ex_demand[1]:.3f}"
)

# cell 22
# Create vectorization on the first axis of p.
e_vectorized_p_1 = jax.vmap(e, in_axes=(0, None, None, None))

# Create vectorization on the second axis of p.
e_vectorized = jax.vmap(e_vectorized_p_1, in_axes=(0, None, None, None))

# cell 27
init_p = jnp.ones(2)

# cell 28
# %%time  # scaffolding: IPython magic
solution = root(lambda p: e(p, A, b, c), init_p, method="hybr")

# cell 29
p = solution.x
p

# cell 30
e_p = jnp.max(jnp.abs(e(p, A, b, c)))
e_p.item()

# cell 31
def jacobian_e(p, A, b, c):
    p_0, p_1 = p
    a_00, a_01 = A[0, :]
    a_10, a_11 = A[1, :]
    j_00 = -a_00 * jnp.exp(-a_00 * p_0) - (b[0] / 2) * p_0 ** (-1 / 2)
    j_01 = -a_01 * jnp.exp(-a_01 * p_1)
    j_10 = -a_10 * jnp.exp(-a_10 * p_0)
    j_11 = -a_11 * jnp.exp(-a_11 * p_1) - (b[1] / 2) * p_1 ** (-1 / 2)
    J = [[j_00, j_01], [j_10, j_11]]
    return jnp.array(J)

# cell 32
# %%time  # scaffolding: IPython magic
solution = root(
    lambda p: e(p, A, b, c),
    init_p,
    jac = lambda p: jacobian_e(p, A, b, c),
    method="hybr",
)

# cell 33
p = solution.x
e_p = jnp.max(jnp.abs(e(p, A, b, c)))
e_p.item()

# cell 34
def newton(f, x_0, tol=1e-5, max_iter=10):
    x = x_0
    f_jac = jax.jacobian(f)

    @jax.jit
    def q(x):
        return x - jnp.linalg.solve(f_jac(x), f(x))

    error = tol + 1
    n = 0
    while error > tol:
        n += 1
        if n > max_iter:
            raise Exception("Max iteration reached without convergence")
        y = q(x)
        if any(jnp.isnan(y)):
            raise Exception("Solution not found with NaN generated")
        error = jnp.linalg.norm(x - y)
        x = y
        print(f"iteration {n}, error = {error:.5f}")
    print("\n" + f"Result = {x} \n")
    return x

# cell 35
# %%time  # scaffolding: IPython magic
p = newton(lambda p: e(p, A, b, c), init_p)

# cell 36
e_p = jnp.max(jnp.abs(e(p, A, b, c)))
e_p.item()

# cell 37
dim = 100  # scaffolding: 3000 in the lecture, cut for CPU

# Create JAX random key
key = jax.random.PRNGKey(0)

# Create a random matrix A and normalize the columns to sum to one
A = jax.random.uniform(key, (dim, dim))
s = jnp.sum(A, axis=0)
A = A / s

# Set up b and c
b = jnp.ones(dim)
c = jnp.ones(dim)

# cell 38
init_p = jnp.ones(dim)

# cell 39
# %%time  # scaffolding: IPython magic
p = newton(lambda p: e(p, A, b, c), init_p)

# cell 40
e_p = jnp.max(jnp.abs(e(p, A, b, c)))
e_p.item()

# cell 41
# %%time  # scaffolding: IPython magic
solution = root(
    lambda p: e(p, A, b, c),
    init_p,
    jac = lambda p: jax.jacobian(e)(p, A, b, c),
    method="hybr",
    tol=1e-5,
)

# cell 42
p = solution.x
e_p = jnp.max(jnp.abs(e(p, A, b, c)))
e_p.item()

# cell 43
A = jnp.array([[2.0, 3.0, 3.0], [2.0, 4.0, 2.0], [1.0, 5.0, 1.0]])

s = 0.2
α = 0.5
δ = 0.8

initLs = [jnp.ones(3), jnp.array([3.0, 5.0, 5.0]), jnp.repeat(50.0, 3)]

# cell 44
@jax.jit
def multivariate_solow(k, A=A, s=s, α=α, δ=δ):
    return s * jnp.dot(A, k**α) + (1 - δ) * k

# cell 45
attempt = 1
for init in initLs:
    print(f'Attempt {attempt}: Starting value is {init} \n')
    k = newton(lambda k: multivariate_solow(k) - k, \
                    init)  # scaffolding: IPython %time magic removed
    print('-'*64)
    attempt += 1

# cell 46
multivariate_solow(k) - k

# cell 47
A = jnp.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]])

s = 0.3
α = 0.3
δ = 0.4

init = jnp.repeat(1.0, 3)

# cell 48
# %%time  # scaffolding: IPython magic

k = newton(lambda k: multivariate_solow(k, A=A, s=s, α=α, δ=δ) - k, init)

# cell 49
# %%time  # scaffolding: IPython magic

k = newton(
    lambda k: multivariate_solow(k, A=A, s=s, α=α, δ=δ) - k, init, tol=1e-7
)

# cell 50
A = jnp.array([[0.2, 0.1, 0.7], [0.3, 0.2, 0.5], [0.1, 0.8, 0.1]])
b = jnp.array([1.0, 1.0, 1.0])
c = jnp.array([1.0, 1.0, 1.0])

initLs = [jnp.repeat(5.0, 3), jnp.ones(3), jnp.array([4.5, 0.1, 4.0])]

# (cells 51-52: the exercise cell tagged raises-exception is cut)  # scaffolding
_report({"jit(q)"}, 8)  # scaffolding: newton is called 8 times (cells 17, 35, 39, 45 x3, 48, 49)
