# source: ../shared/realworld/cases/jax1348_global_keyword_in_jit.py (a global statement in a jitted function), inside a method
# expect: JIT602 at line 14
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

counter = 0


class Stepper:
    @jax.jit
    def step(x):
        global counter
        counter += 1  # <-
        return x + counter


print(Stepper.step(jnp.zeros(1)))
print(Stepper.step(jnp.zeros(1)))
print(counter)
