# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: JIT401 at line 23
# runtime: COMPILES 3 CALLS 3
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Options:
    degree: int


@functools.partial(jax.jit, static_argnames="options")
def power(x, options):
    return x ** options.degree


x = jnp.full(3, 1.01)
for step in range(3):
    x = power(x, options=Options(degree=step + 1))
print(x)
