from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes", "keep"))
def reduce(x, axes, keep):
    return x.sum(axis=axes, keepdims="dims" in keep)


x = jnp.ones((2, 3, 4))
for _ in range(5):
    total = reduce(x, axes=(0,  # batch  # expect: JIT301
                            2), keep=frozenset({"dims"}))  # expect: JIT301
print(total.tolist())
