# source: https://github.com/keras-team/keras/issues/19639
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: hertschuh's fix as written: compile(jit_compile=False) keeps call() eager, so pos.item() is a concrete int, and only jitted_call (self and pos static) is compiled, once for two predictions at the same position.
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


# --- end harness ---
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class keras:  # scaffolding: keras is not installed; a Model whose predict() jits call() when jit_compile is on
    class Model:  # scaffolding
        def __init__(self, name=None):  # scaffolding
            self.name = name  # scaffolding

        def compile(self, jit_compile=True):  # scaffolding
            self.jit_compile = jit_compile  # scaffolding

        def predict(self, inputs):  # scaffolding
            fn = jax.jit(self.call) if self.jit_compile else self.call  # scaffolding
            return np.asarray(fn(inputs))  # scaffolding


class CustomModel(keras.Model):
    def __init__(self, name=None):
        super().__init__(name=name)

    @partial(jax.jit, static_argnums=(0, 2, 3))
    def jitted_call(self, x, pos, num_repeats):
        x_slice = x[:, :pos, :, :]
        x_slice = jnp.repeat(x_slice, num_repeats, axis=2)
        return x_slice

    def call(self, inputs, training=True):
        x, pos = inputs
        return self.jitted_call(x, pos.item(), 2)

x = np.random.rand(1, 5, 4, 3)
pos = jnp.array([2])
model = CustomModel()
model.compile(jit_compile=False)
model.predict((x, pos))
model.predict((x, pos))  # scaffolding: a second batch with the same position
_report({"jit(jitted_call)", "jit(call)"}, 2)  # scaffolding
