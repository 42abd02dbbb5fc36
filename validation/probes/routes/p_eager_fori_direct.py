# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at line 10
# expect: JIT101 at line 10
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp

x = jnp.ones(3)
for _ in range(3):
    x = jax.lax.fori_loop(0, 5, lambda i, v: v * 1.1, x)
print(x)
