# source: https://github.com/QuantEcon/lecture-python.myst/pull/340
# expect: jit-in-loop-or-body at line 35
# runtime: COMPILES 4 CALLS 3
# why: newton builds and jits a new q lambda on every call, so the exercise loop that solves the same Solow system from three starting values compiles q afresh for each start (plus once more for the weak-typed start).
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
import numpy as np
import jax
import jax.numpy as jnp


def newton(f, x_0, tol=1e-5, max_iter=10):
    x = x_0
    q = jax.jit(lambda x: x - jnp.linalg.solve(jax.jacobian(f)(x), f(x)))
    error = tol + 1
    n = 0
    while error > tol:
        n+=1
        if(n > max_iter):
            raise Exception('Max iteration reached without convergence')
        y = q(x)
        if(any(jnp.isnan(y))):
            raise Exception('Solution not found with NaN generated')
        error = jnp.linalg.norm(x - y)
        x = y
        print(f'iteration {n}, error = {error:.5f}')
    print('\n' + f'Result = {x} \n')
    return x


A = jnp.array([[2.0, 3.0, 3.0],
               [2.0, 4.0, 2.0],
               [1.0, 5.0, 1.0]])

s = 0.2
α = 0.5
δ = 0.8

initLs = [jnp.ones(3),
          jnp.array([3.0, 5.0, 5.0]),
          jnp.repeat(50.0, 3)]


def multivariate_solow(k, A=A, s=s, α=α, δ=δ):
    return (s * jnp.dot(A, k**α) + (1 - δ) * k)


attempt = 1
for init in initLs:
    print(f'Attempt {attempt}: Starting value is {init} \n')

    k = newton(lambda k: multivariate_solow(k) - k, \
                     init).block_until_ready()  # scaffolding: IPython %time removed
    print('-'*64)
    attempt +=1

_report({"jit(<lambda>)"}, attempt - 1)  # scaffolding
