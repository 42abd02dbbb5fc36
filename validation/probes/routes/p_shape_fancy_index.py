# source: issue 27: fancy indices whose length varies per call
# expect: JIT501 at line 17
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def gather(x, idx):
    return x[idx].sum()


x = jnp.arange(10.0)
for n in range(1, 4):
    idx = np.arange(n)
    print(gather(x, idx))
