# source: validation/threads/heldout4/phentax28_int_jnp_ceil_in_jit.py (a Python conversion of a traced value), `.item()` in a metrics dict returned by a jitted eval method
# expect: JIT802 at line 14
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


class Evaluator:
    def __init__(self):
        self.evaluate = jax.jit(self._evaluate)

    def _evaluate(self, logits, labels):
        acc = jnp.mean(jnp.argmax(logits, -1) == labels)
        return {"accuracy": acc.item(), "n": labels.shape[0]}  # <-


print(Evaluator().evaluate(jnp.eye(3), jnp.arange(3)))
