# source: fixtures/trace_errors/scan_body_int_of_carry.py (int() of a traced loop value), int() of the fori_loop counter used as a Python index into a list, the loop inside a jitted function given with `from jax import lax`
# expect: JIT802 at line 12
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp
from jax import lax

SCALES = [1.0, 0.5, 0.25]


def body(i, x):
    return x * SCALES[int(i)]  # <-


@jax.jit
def anneal(x):
    return lax.fori_loop(0, len(SCALES), body, x)


print(anneal(jnp.ones(2)))
