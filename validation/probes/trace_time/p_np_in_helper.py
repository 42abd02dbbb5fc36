# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError
# expect: JIT803 at line 11
# runtime: ERROR TracerArrayConversionError
import jax
import jax.numpy as jnp
import numpy as np


def log_softmax(logits):
    shifted = logits - logits.max()
    return shifted - np.log(jnp.exp(shifted).sum())


@jax.jit
def loss(logits, label):
    return -log_softmax(logits)[label]


print(loss(jnp.arange(3.0), 1))
