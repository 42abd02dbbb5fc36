# source: https://github.com/patrick-kidger/lineax/issues/52
# expect: none
# runtime: COMPILES 2 CALLS 11
# why: lx.linear_solve is filter-jitted inside lineax and the same operator and vector structure is passed on every call, so the repeated timing loop compiles once per solver configuration (the first default-solver call, then the LU calls) and then reuses the executable.

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
from jax import random
import jax.numpy as jnp
import lineax as lx

matrix_key, vector_key = random.split(random.PRNGKey(0))
matrix = random.normal(matrix_key, (10, 10))
vector = random.normal(vector_key, (10,))

operator = lx.MatrixLinearOperator(matrix)
solution = lx.linear_solve(operator, vector)

for _ in range(5):  # scaffolding: stands in for %timeit
    lx.linear_solve(operator, vector, solver=lx.LU())

for _ in range(5):  # scaffolding: stands in for %timeit
    jnp.linalg.solve(matrix, vector)

_report({"jit(linear_solve)"}, 11)  # scaffolding
