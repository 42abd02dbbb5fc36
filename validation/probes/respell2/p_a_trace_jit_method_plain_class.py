# source: validation/threads/heldout5/jax1567_jit_method_on_attrs_class.py (jit on a method traces a plain-class self), a plain class with __init__, `from jax import jit` decorator, the step called in a while loop
# expect: JIT805 at line 13
# runtime: ERROR TypeError
import jax.numpy as jnp
from jax import jit


class Particle:
    def __init__(self, p, v):
        self.p = p
        self.v = v

    @jit  # <-
    def step(self, dt):
        return self.p + self.v * dt


particle = Particle(jnp.zeros(3), jnp.ones(3))
t = 0.0
while t < 0.3:
    print(particle.step(0.1))
    t += 0.1
