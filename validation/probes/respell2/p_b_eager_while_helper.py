# source: validation/threads/heldout6/gjaxopt563_eager_solver_run_recompiles_while.py (a lax.while_loop with fresh closures run outside jit, once per outer iteration), the loop in a helper with nested defs
# expect: JIT520 at line 18, 22
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp
from jax import lax


def newton_sqrt(a):
    def cond(state):
        x, i = state
        return i < 5

    def body(state):
        x, i = state
        return 0.5 * (x + a / x), i + 1

    return lax.while_loop(cond, body, (a, 0))[0]  # <-


for a in [2.0, 3.0, 5.0]:
    print(newton_sqrt(jnp.float32(a)))
