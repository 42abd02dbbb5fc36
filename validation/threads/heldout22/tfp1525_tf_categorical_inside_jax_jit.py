# source: https://github.com/tensorflow/probability/issues/1525
# expect: trace-time-error at line 44
# runtime: ERROR TracerArrayConversionError
# why: the reporter builds a TensorFlow tfd.Categorical from a traced logits array inside jax.jit; TF converts it with tf.convert_to_tensor, which calls __array__ on the tracer and raises TracerArrayConversionError.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")
# tensorflow/probability issue #1525: a (TensorFlow) tfd.Categorical built inside a jax.jit-ed function
import types  # scaffolding

import jax
import numpy as np  # scaffolding


class _TFCategorical:  # scaffolding: tensorflow_probability is not installed; TF's tfd.Categorical
    def __init__(self, logits=None, probs=None, dtype=None, validate_args=False, name="Categorical"):
        # TF converts its parameters with tf.convert_to_tensor, which calls __array__ on foreign objects
        self._logits = np.asarray(logits)


tfp = types.SimpleNamespace(distributions=types.SimpleNamespace(Categorical=_TFCategorical))  # scaffolding: import tensorflow_probability as tfp
tfd = tfp.distributions


@jax.jit
def fun(logits):
    dist = tfd.Categorical(logits=logits)

    return dist


try:  # scaffolding
    fun(jax.numpy.ones((8, 5)))
    _report({"jit(fun)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
