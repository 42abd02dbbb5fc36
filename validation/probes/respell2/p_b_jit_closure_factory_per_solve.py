# source: validation/threads/heldout6/skrobot871_solver_rebuilds_jitted_closures_per_solve.py (a solve method builds jitted closures every run), decorator on the nested def in a method
# expect: JIT102 at line 15
# runtime: COMPILES 6 CALLS 3
import jax
import jax.numpy as jnp


class Solver:
    def __init__(self, target):
        self.target = target

    def solve(self, x0):
        target = self.target

        @jax.jit  # <-
        def residual(x):
            return jnp.sum((x - target) ** 2)

        x = x0
        for _ in range(2):
            x = x - 0.1 * jax.grad(residual)(x)
        return residual(x)


s = Solver(jnp.ones(2))
for trial in range(3):
    print(s.solve(jnp.zeros(2)))
