# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at dynamics.py line 6
# expect: JIT101 at dynamics.py line 6
# expect: JIT520 at line 13
# expect: JIT101 at line 13
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp

from dynamics import simulate

state = jnp.ones(2)
for _ in range(3):
    state = simulate(state, 5)
print(state)
