# source: ../shared/realworld/cases2/jaxpr22098_tracer_bool_and.py (Python control flow on traced values), in a method of an object the jitted function calls
# expect: JIT801 at line 13
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


class Clipper:
    def __init__(self, limit):
        self.limit = limit

    def apply(self, x):
        if x > self.limit:  # <-
            return self.limit
        return x


clipper = Clipper(1.0)
step = jax.jit(lambda x: clipper.apply(x) * 2)
print(step(jnp.float32(0.5)))
