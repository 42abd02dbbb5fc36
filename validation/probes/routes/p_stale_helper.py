# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: JIT601 at line 11, 20
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

TEMPERATURE = 1.0


def soften(logits):
    return logits / TEMPERATURE


@jax.jit
def probabilities(logits):
    return jax.nn.softmax(soften(logits))


print(probabilities(jnp.arange(3.0)))
TEMPERATURE = 2.0
print(probabilities(jnp.arange(3.0)))
