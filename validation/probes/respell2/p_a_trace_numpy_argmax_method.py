# source: validation/threads/heldout4/jax12083_ndim_of_list_inside_jit.py / heldout6/jax8572 (NumPy reading a tracer), np.argmax(np.asarray(logits)) in a jitted predict method of a classifier, `from jax import jit` as a call
# expect: JIT803 at line 17
# runtime: ERROR TracerArrayConversionError
import numpy as np

import jax.numpy as jnp
from jax import jit


class Classifier:
    def __init__(self, w):
        self.w = w
        self.predict = jit(self._predict)

    def _predict(self, x):
        logits = x @ self.w
        return np.argmax(np.asarray(logits), axis=-1)  # <-


clf = Classifier(jnp.eye(3))
print(clf.predict(jnp.ones((2, 3))))
