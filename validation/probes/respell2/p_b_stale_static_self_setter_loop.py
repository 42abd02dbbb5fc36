# source: validation/threads/heldout6/reservoirpy235_static_self_step_ignores_updates.py, the method jitted in the class body (step = jax.jit(_step, static_argnums=0)), the attribute set from outside in a while loop
# expect: JIT603 at line 13, 24
# runtime: STALE COMPILES 1 CALLS 3
import jax
import jax.numpy as np


class Integrator:
    def __init__(self):
        self.dt = 0.1

    def _step(self, y):
        return y + self.dt * y  # <-

    step = jax.jit(_step, static_argnums=0)


sim = Integrator()
y = np.ones(2)
t = 0
while t < 3:
    y = sim.step(y)
    print(y)
    sim.dt = sim.dt * 2  # <-
    t += 1
