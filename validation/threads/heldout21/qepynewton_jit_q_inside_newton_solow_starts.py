# source: https://python.quantecon.org/newton_method.html
# expect: jit-in-loop-or-body at line 32; shape-churn at line 57
# runtime: COMPILES 8 CALLS 25
# why: newton() re-creates jax.jit(q) around a fresh lambda on each of its 5 calls (3 in the loop over starting values), and the weak-typed starting vectors from jnp.repeat(50.0, 3) / jnp.repeat(1.0, 3) make q compile a second time once x becomes a strong float32: 8 compiles / 25 calls.
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
import jax  # scaffolding: the lecture's imports
import jax.numpy as jnp  # scaffolding

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

A = jnp.array([[2.0, 3.0, 3.0], [2.0, 4.0, 2.0], [1.0, 5.0, 1.0]])

s = 0.2
α = 0.5
δ = 0.8

initLs = [jnp.ones(3), jnp.array([3.0, 5.0, 5.0]), jnp.repeat(50.0, 3)]

@jax.jit
def multivariate_solow(k, A=A, s=s, α=α, δ=δ):
    return s * jnp.dot(A, k**α) + (1 - δ) * k

attempt = 1
for init in initLs:
    print(f'Attempt {attempt}: Starting value is {init} \n')
    k = newton(lambda k: multivariate_solow(k) - k,  # scaffolding: was `%time k = newton(...)`
                    init)
    print('-'*64)
    attempt += 1

print(multivariate_solow(k) - k)  # scaffolding: print (cell output)

A = jnp.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]])

s = 0.3
α = 0.3
δ = 0.4

init = jnp.repeat(1.0, 3)

# %%time  # scaffolding: cell magic

k = newton(lambda k: multivariate_solow(k, A=A, s=s, α=α, δ=δ) - k, init)

# %%time  # scaffolding: cell magic

k = newton(
    lambda k: multivariate_solow(k, A=A, s=s, α=α, δ=δ) - k, init, tol=1e-7
)
_report({"jit(q)"}, 25)  # scaffolding: 25 Newton iterations (q calls) over the 5 newton() calls, printed above
