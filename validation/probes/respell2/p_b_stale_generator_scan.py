# source: validation/threads/heldout5/openillumi_iterator_in_fori_loop_body.py (next() on a Python iterator inside a lax loop body), a generator expression in a scan body
# expect: JIT601 at line 11
# runtime: STALE COMPILES 1 CALLS 1
import jax.numpy as jnp
from jax import lax

squares = (i * i for i in range(5))


def body(carry, _):
    return carry + next(squares), None  # <-


total, _ = lax.scan(body, 0, None, length=5)
print(total)
