# source: https://github.com/google/jaxopt/issues/563
# expect: jit-in-loop-or-body at line 45
# runtime: COMPILES 3 CALLS 3
# why: solver.run is called outside jit, so its lax.while_loop is staged eagerly with cond/body closures made fresh on every run; the loop misses the cache and compiles again for each run of the same problem (3 compiles of jit(while) for 3 runs).

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
import jaxopt


def fun(w, X, y):
    return jnp.mean((X @ w - y) ** 2)


X = jax.random.normal(jax.random.PRNGKey(0), (10, 3))
y = jnp.ones(10)
w0 = jnp.zeros(3)
solver = jaxopt.LBFGS(fun=fun, maxiter=20)

runs = 0
for i in range(3):
    sol = solver.run(w0, X, y + i)
    runs += 1
_report({"jit(while)"}, runs)
