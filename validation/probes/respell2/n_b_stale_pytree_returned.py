# source: fixtures/stale_values/jitted_function_assigns_argument_attribute.py, look-alike: the jitted function returns a new pytree and the loop rebinds it
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Clock:
    def __init__(self, t):
        self.t = t

    def tree_flatten(self):
        return (self.t,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@jax.jit
def tick(clock, dt):
    return Clock(clock.t + dt)


clock = Clock(jnp.zeros(()))
for _ in range(3):
    clock = tick(clock, 0.5)
print(clock.t)
