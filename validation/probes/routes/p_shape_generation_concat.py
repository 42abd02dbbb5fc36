# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (dynamic shapes)
# expect: JIT501 at line 15
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def next_logits(tokens):
    return jnp.ones(5) * tokens.sum()


tokens = jnp.zeros((1,), jnp.int32)
for _ in range(3):
    logits = next_logits(tokens)
    tokens = jnp.concatenate([tokens, jnp.argmax(logits)[None]])
print(tokens)
