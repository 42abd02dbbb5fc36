# source: https://docs.jax.dev/en/latest/faq.html (strategy 2: static self; mutating it gives stale results)
# expect: JIT603 at line 11, 12
# expect: JIT603 at model.py line 12
# runtime: STALE COMPILES 1 CALLS 2
import jax.numpy as jnp

from model import Dense

layer = Dense(2.0)
print(layer(jnp.ones(2)))
layer.scale = 3.0
print(layer(jnp.ones(2)))
