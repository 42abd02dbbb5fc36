# source: validation/threads/heldout6/jax7561_list_limits_as_static_arguments.py (a list as a static argument), the jitted function a plain class's method taken from the class (`jax.jit(Solver.solve, static_argnums=(0, 2))`, self static too)
# expect: JIT301 at line 17
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


class Solver:
    def __init__(self, W):
        self.W = W

    def solve(self, x, weights):
        return sum(w * (self.W @ x) for w in weights)


solve = jax.jit(Solver.solve, static_argnums=(0, 2))
print(solve(Solver(jnp.eye(2)), jnp.ones(2), [0.5, 0.5]))  # <-
