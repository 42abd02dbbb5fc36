# source: ../shared/realworld/cases2/jax1406_range_of_traced_arg.py (range() of a traced argument), in a method jitted through self in __init__
# expect: JIT802 at line 13
# runtime: ERROR TracerIntegerConversionError
import jax
import jax.numpy as jnp


class Repeater:
    def __init__(self):
        self.run = jax.jit(self._run)

    def _run(self, x, times):
        for _ in range(times):  # <-
            x = x * 2
        return x


print(Repeater().run(jnp.ones(2), 3))
