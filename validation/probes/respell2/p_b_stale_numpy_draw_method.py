# source: validation/threads/heldout5/jax1141_prngkey_from_time_in_jit.py (a value fixed at trace time that should change per call), a NumPy Generator draw in a jitted method
# expect: JIT601 at line 20
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)


class Augment:
    def __init__(self):
        self._jitted = jax.jit(self._apply)

    def __call__(self, x):
        return self._jitted(x)

    @staticmethod
    def _apply(x):
        shift = rng.normal()  # <-
        return x + shift


aug = Augment()
x = jnp.zeros(2)
print(aug(x))
print(aug(x))
