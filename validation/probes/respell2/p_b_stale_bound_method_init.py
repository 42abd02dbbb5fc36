# source: fixtures/stale_values/bound_method_jitted_in_build_method.py (a bound method jitted and stored on the instance, an attribute it reads changed later), jitted in __init__, changed by a setter method
# expect: JIT601 at line 14, 17
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


class Penalty:
    def __init__(self, weight):
        self.weight = weight
        self._value = jax.jit(self.value)

    def value(self, x):
        return self.weight * jnp.sum(x ** 2)  # <-

    def set_weight(self, w):
        self.weight = w  # <-

    def __call__(self, x):
        return self._value(x)


pen = Penalty(1.0)
x = jnp.ones(2)
print(pen(x))
pen.set_weight(10.0)
print(pen(x))
