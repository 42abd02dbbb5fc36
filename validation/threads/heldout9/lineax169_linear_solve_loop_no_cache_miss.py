# source: https://github.com/patrick-kidger/lineax/issues/169
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: the reporter's MRE calls lx.linear_solve five more times with the same operator and vector; on lineax 0.1.1 / jax 0.10.2 linear_solve compiles once and the later calls hit the cache (1 compile for 6 calls).

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
import lineax as lx
import equinox as eqx
import jax
from jax import random as jr

# setting up inputs
matrix = jr.normal(jr.PRNGKey(0), (3, 3))
vector = jr.normal(jr.PRNGKey(1), (3,))
operator = lx.MatrixLinearOperator(matrix)

# compiling
lx.linear_solve(operator, vector)  # is already jitted in lineax function def'n
print("Compilation done.")

# running five times (the reporter traced this loop with XProf)
for i in range(5):
    lx.linear_solve(operator, vector)
_report({"jit(linear_solve)"}, 6)  # scaffolding
