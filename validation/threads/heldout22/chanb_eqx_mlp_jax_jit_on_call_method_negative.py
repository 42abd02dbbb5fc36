# source: https://github.com/chanb/jax_learning/blob/392d07cfb5d0ac2bb2f0d4ffe47fa5c206c3c727/jax_learning/models/layers.py
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: @jax.jit on an equinox Module's __call__ takes self as a pytree argument, so repeated calls reuse one executable and calls inside an outer filter_jit are inlined.
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
from typing import Tuple, Sequence, Callable, Optional

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jrandom
import numpy as np


class MLP(eqx.Module):
    _in_dim: int = eqx.static_field()
    _out_dim: int = eqx.static_field()
    weights: Sequence[eqx.nn.Linear]
    biases: Sequence[jnp.ndarray]

    def __init__(
        self,
        in_dim: int,
        out_dim: int,
        hidden_dim: int,
        num_hidden: int,
        key: jrandom.PRNGKey,
    ):
        self._in_dim = in_dim
        self._out_dim = out_dim
        if num_hidden == 0:
            self.weights = [eqx.nn.Linear(in_dim, out_dim, use_bias=False, key=key)]
            self.biases = [jnp.zeros(out_dim)]
            return

        self.weights = [eqx.nn.Linear(in_dim, hidden_dim, use_bias=False, key=key)]
        self.biases = [jnp.zeros(hidden_dim)]
        for _ in range(num_hidden - 1):
            key, _ = jrandom.split(key, num=2)
            self.weights.append(
                eqx.nn.Linear(hidden_dim, hidden_dim, use_bias=False, key=key)
            )
            self.biases.append(jnp.zeros(hidden_dim))

        key, _ = jrandom.split(key, num=2)
        self.weights.append(eqx.nn.Linear(hidden_dim, out_dim, use_bias=False, key=key))
        self.biases.append(jnp.zeros(out_dim))

    @property
    def in_dim(self):
        return self._in_dim

    @property
    def out_dim(self):
        return self._out_dim

    @property
    def num_hidden(self):
        return len(self.weights) - 1

    @jax.jit
    def __call__(self, input: np.ndarray) -> np.ndarray:
        x = input
        for layer_i in range(self.num_hidden):
            x = jax.nn.relu(self.weights[layer_i](x) + self.biases[layer_i])
        x = self.weights[-1](x) + self.biases[-1]
        return x


model = MLP(in_dim=4, out_dim=2, hidden_dim=16, num_hidden=2, key=jrandom.PRNGKey(0))  # scaffolding
for i in range(5):  # scaffolding
    out = model(jnp.ones(4) * i)  # scaffolding


@eqx.filter_jit  # scaffolding: a learner-style jitted loss around the model
def loss(model, xs, ys):  # scaffolding
    return jnp.mean((jax.vmap(model)(xs) - ys) ** 2)  # scaffolding


for i in range(3):  # scaffolding
    loss(model, jnp.ones((8, 4)) * i, jnp.zeros((8, 2)))  # scaffolding
_report({"jit(__call__)", "jit(loss)"}, 8)  # scaffolding
