# source: https://github.com/QuantEcon/lecture-jax/pull/113
# expect: jit-in-loop-or-body at line 38
# runtime: COMPILES 4 CALLS 3
# why: newton decorates a new inner q with @jax.jit on every call (closing over the new lambda f), so the exercise's loop over three starting values for the same Solow system compiles q afresh in each call (4 compiles for 3 calls; the third start, jnp.repeat(50.0, 3), is weakly typed and costs one more).
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


# lectures/newtons_method.md at bfe2b34 (PR #113): imports, the multivariate newton, exercise 1's solution cells (the 5,000-good market run is cut: scaffolding)
import jax
import jax.numpy as jnp

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
        if jnp.any(jnp.isnan(y)):
            raise Exception('Solution not found with NaN generated')
        error = jnp.linalg.norm(x - y)
        x = y
        print(f'iteration {n}, error = {error}')
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
    return s * jnp.dot(A, k**α) + (1 - δ) * k


attempt = 1
for init in initLs:
    print(f'Attempt {attempt}: Starting value is {init} \n')
    k = newton(lambda k: multivariate_solow(k) - k, \
                     init).block_until_ready()  # (%time dropped: scaffolding)
    print('-'*64)
    attempt += 1
_report({"jit(q)"}, 3)  # scaffolding: CALLS = newton calls
