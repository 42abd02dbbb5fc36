# source: validation/threads/heldout6/jax4257_raise_in_cond_branch_under_jit.py (raise in a lax.cond branch), the raising branch a module-level function passed by name, `from jax import lax`, positional operands
# expect: JIT811 at line 14
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp
from jax import lax


def _ok(x):
    return jnp.sqrt(x)


def _negative(x):
    raise ValueError("negative input")  # <-


def safe_sqrt(x):
    return lax.cond(x >= 0, _ok, _negative, x)


print(jax.jit(safe_sqrt)(jnp.float32(4.0)))
