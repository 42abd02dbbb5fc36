# source: look-alike of p_a_trace_numpy_argmax_method: NumPy reads only the static shape
# expect: none
# runtime: COMPILES 1 CALLS 1
import numpy as np

import jax.numpy as jnp
from jax import jit


class Classifier:
    def __init__(self, w):
        self.w = w
        self.predict = jit(self._predict)

    def _predict(self, x):
        logits = x @ self.w
        scale = np.sqrt(np.prod(logits.shape[1:]))
        return jnp.argmax(logits / scale, axis=-1)


clf = Classifier(jnp.eye(3))
print(clf.predict(jnp.ones((2, 3))))
