# source: validation/threads/heldout4/phentax28_int_jnp_ceil_in_jit.py (int() of a traced jnp value), with `import jax.numpy as np` in a helper of a dataclass method jitted through jax.jit(obj.method)
# expect: JIT802 at line 11
# runtime: ERROR ConcretizationTypeError
from dataclasses import dataclass

import jax
import jax.numpy as np


def n_bins(x, width):
    return int(np.ceil(x.max() / width))  # <-


@dataclass
class Histogram:
    width: float

    def counts(self, x):
        n = n_bins(x, self.width)
        return np.zeros(n).at[(x / self.width).astype(int)].add(1.0)


hist = Histogram(0.5)
count = jax.jit(hist.counts)
print(count(np.array([0.1, 0.7, 1.2])))
