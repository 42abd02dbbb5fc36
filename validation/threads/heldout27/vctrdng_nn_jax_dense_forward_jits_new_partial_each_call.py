# source: https://github.com/vctr-dng/nn_jax/commit/5ee85ac68471990fd2723de23be9e11ec55f4366
# expect: jit-in-loop-or-body at line 71
# runtime: COMPILES 6 CALLS 6
# why: Dense.forward wraps a fresh functools.partial over the current weights in jit(vmap(...)) on every call, so each forward pass traces and compiles single_forward again (6 compiles for 6 same-shaped calls).
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



# --- nn_jax/layer/layer.py ---
from abc import ABC, abstractmethod

from jax.typing import ArrayLike


class Layer(ABC):
    def __init__(self, input_size: ArrayLike, output_size: ArrayLike):
        self.input_size = input_size
        self.output_size = output_size

    @abstractmethod
    def forward(self, inputs: ArrayLike) -> ArrayLike:
        pass


# --- nn_jax/layer/dense.py ---
from functools import partial

import jax.numpy as jnp
import jax.random as random
from jax import Array, jit, vmap
from jax.typing import ArrayLike

# from .layer import Layer  # scaffolding: layer.py inlined above

SEED = 0
key = random.key(SEED)


class Dense(Layer):
    weight_type = jnp.float32

    def __init__(self, input_size: ArrayLike, output_size: ArrayLike):
        super().__init__(input_size, output_size)
        self.weights: Array = 0.1 * random.normal(
            key, shape=(self.output_size, self.input_size), dtype=self.weight_type
        )
        self.biases: Array = jnp.zeros((1, self.output_size), dtype=self.weight_type)
        self.output: ArrayLike = self.forward(jnp.zeros((1, self.input_size)))

    def forward(self, inputs: ArrayLike) -> ArrayLike:
        partial_forward = partial(single_forward, self.weights, self.biases)
        vectorized_forward = jit(vmap(partial_forward, in_axes=0, out_axes=1))
        self.output = vectorized_forward(inputs)
        return self.output


def single_forward(weights: Array, biases: Array, x: Array) -> Array:
    return weights @ x + biases


# scaffolding: calls in the style of the repo's tests (tests/test_dense.py added in #5)
_calls = 1  # scaffolding: Dense.__init__ already called forward once
dense = Dense(input_size=4, output_size=3)  # scaffolding
for _step in range(5):  # scaffolding: five forward passes on same-shaped batches
    inputs = jnp.ones((8, 4)) * _step  # scaffolding
    output = dense.forward(inputs)  # scaffolding
    _calls += 1  # scaffolding
_report({"jit(single_forward)"}, _calls)  # scaffolding
