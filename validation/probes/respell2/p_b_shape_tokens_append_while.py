# source: validation/threads/heldout6/jax837_growing_context_in_sampling_loop.py (a context that grows by one token per call of a jitted model), jnp.append in a while loop of a generate() method
# expect: JIT501 at line 19
# runtime: COMPILES 4 CALLS 4
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self):
        self.table = jnp.arange(32.0).reshape(8, 4)
        self.logits = jax.jit(self._logits)

    def _logits(self, tokens):
        return self.table @ self.table[tokens].sum(0)

    def generate(self, prompt, n):
        tokens = jnp.array(prompt)
        while len(tokens) < n:
            nxt = jnp.argmax(self.logits(tokens)) % 8  # <-
            tokens = jnp.append(tokens, nxt)
        return tokens


print(Sampler().generate([1], 5))
