# source: https://github.com/deepqmc/deepqmc/commit/bb422ce3e255a8a672beb3b3b260c0f1b1e81295
# expect: trace-time-error at line 52
# runtime: ERROR ConcretizationTypeError
# why: MLP computes its log-spaced layer widths with int(jnp.round(...)); inside the jitted apply jnp.round is staged out, so int() of the tracer raises ConcretizationTypeError.
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

import haiku as hk
import jax.numpy as jnp
from jax.nn import softplus


def SSP(x):
    return softplus(x) + jnp.log(0.5)


class MLP(hk.Module):
    def __init__(
        self,
        in_dim,
        out_dim,
        hidden_layers=[],
        last_bias=True,
        last_linear=False,
        activation=SSP,
        name=None,
    ):
        super().__init__(name=name)
        self.activation = activation
        self.last_linear = last_linear
        if len(hidden_layers) == 2 and hidden_layers[0] == 'log':
            n_hidden = hidden_layers[1]
            qs = [k / n_hidden for k in range(1, n_hidden + 1)]
            dims = [int(jnp.round(in_dim ** (1 - q) * out_dim**q)) for q in qs]
        else:
            dims = [*hidden_layers, out_dim]
        layers = []
        for index, dim in enumerate(dims):
            with_bias = index < (len(dims) - 1) or last_bias
            layers.append(
                hk.Linear(
                    output_size=dim, with_bias=with_bias, name="linear_%d" % index
                )
            )
        self.layers = layers

    def __call__(self, inputs):
        out = inputs
        for i, layer in enumerate(self.layers):
            out = layer(out)
            if i < (len(self.layers) - 1) or not self.last_linear:
                out = self.activation(out)
        return out


import jax  # scaffolding


@hk.without_apply_rng  # scaffolding: a PauliNet-style MLP with log-spaced hidden layers
@hk.transform
def net(x):
    return MLP(16, 4, hidden_layers=('log', 2))(x)


x = jnp.ones((32, 16))  # scaffolding
params = net.init(jax.random.PRNGKey(0), x)  # scaffolding: eager init works
apply = jax.jit(net.apply)  # scaffolding: the training step jits the ansatz
try:  # scaffolding
    for step in range(3):  # scaffolding
        out = apply(params, x * step)
    _report({"jit(apply_fn)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
