# source: https://github.com/vctr-dng/nn_jax/commit/292c13272a23caaf2197d912295d21121121a19f
# expect: none
# runtime: COMPILES 0 CALLS 6
# why: after PR #5 forward only vmaps the partial (no jit), so nothing is re-jitted per call; the 6 forward passes run eagerly and no jitted single_forward is compiled.
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

from jax import Array
from jax.typing import ArrayLike


class Layer(ABC):
    def __init__(self, input_size: ArrayLike, output_size: ArrayLike):
        self.input_size = input_size
        self.output_size = output_size

    @abstractmethod
    def forward(self, inputs: Array) -> Array:
        pass


# --- nn_jax/layer/dense.py ---
from functools import partial
from typing import Callable

import jax.numpy as jnp
import jax.random as random
from jax import Array, vmap

# from .layer import Layer  # scaffolding: layer.py inlined above

SEED = 0
key = random.key(SEED)


class Dense(Layer):
    weight_type = jnp.float32

    def __init__(self, input_size: int, output_size: int):
        super().__init__(input_size, output_size)
        self.weights: Array = 0.1 * random.normal(
            key, shape=(self.output_size, self.input_size), dtype=self.weight_type
        )
        self.biases: Array = jnp.zeros(self.output_size, dtype=self.weight_type)
        self.output: Array = self.forward(jnp.zeros((1, self.input_size)))

    def forward(self, inputs: Array) -> Array:
        partial_forward: Callable[[Array], Array] = partial(
            single_forward, self.weights, self.biases
        )

        # vmap transforms partial_forward to work on batches
        # in_axes=0: iterate over the first axis (batch dimension) of inputs
        # out_axes=0: stack results along the first axis (batch dimension)
        vectorized_forward = vmap(partial_forward, in_axes=0, out_axes=0)

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
