# source: look-alike of p_trace_instance_method_call: jnp.minimum instead of an if
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


class Clipper:
    def __init__(self, limit):
        self.limit = limit

    def apply(self, x):
        return jnp.minimum(x, self.limit)


clipper = Clipper(1.0)
step = jax.jit(lambda x: clipper.apply(x) * 2)
print(step(jnp.float32(0.5)))
