# source: https://github.com/patrick-kidger/lineax/issues/101
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jit over grad over vmap of lx.linear_solve, closing over the global NumPy B: the TypeError reported for test1 no longer occurs (lineax 0.1.1), and test1 compiles once for two calls.

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
import numpy as np
import lineax as lx

N = 8
M = 16
K = 128

np.random.seed(42)
A = np.random.randn(M, N)
B = np.random.randn(M, K)

@jax.jit
@jax.grad
def test1(A):
  op = lx.MatrixLinearOperator(A)
  return jax.vmap(lambda b: lx.linear_solve(op, b, lx.AutoLinearSolver(well_posed=False)).value)(B.T).mean()

@jax.jit
@jax.grad
def test2(A):
  op = lx.MatrixLinearOperator(A)
  result = jnp.empty((B.shape[1], A.shape[1]), dtype=jnp.float32)
  for i, b in enumerate(B.T):
    result = result.at[i, :].set(lx.linear_solve(op, b, lx.AutoLinearSolver(well_posed=False)).value)
  return result.mean()

@jax.jit
@jax.grad
def test3(A):
  op = lx.MatrixLinearOperator(A)
  result = jax.lax.scan(lambda _, b: (None, lx.linear_solve(op, b, lx.AutoLinearSolver(well_posed=False)).value), None, B.T)[1]
  return result.mean()


test1(A)  # scaffolding
test1(A + 1.0)  # scaffolding
_report({"jit(test1)"}, 2)  # scaffolding
