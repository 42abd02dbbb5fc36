# source: https://github.com/Neural-Mechanics-Lab/folax/commit/cc9f5547303248bf3bc7620939df5150db819eb8
# expect: trace-time-error at line 111
# runtime: ERROR ConcretizationTypeError
# why: the flattened length is computed as int(jnp.prod(jnp.array(spatial_dims))); under nnx.jit the jnp ops are staged out, so int() gets a tracer and raises ConcretizationTypeError although the shape is static.

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

from typing import Optional, Callable, Sequence

import jax
import jax.numpy as jnp
from flax import nnx


# fol/deep_neural_networks/ported_fourier_neural_operator_networks/channel_mlp.py before the commit (docstrings cut)
class ChannelMLP(nnx.Module):
    """Multi-layer perceptron applied channel-wise across spatial dimensions."""

    def __init__(
        self,
        in_channels: int,
        out_channels: Optional[int] = None,
        hidden_channels: Optional[int] = None,
        n_layers: int = 2,
        n_dim: int = 2,  # unused, kept for API compatibility
        non_linearity: Optional[Callable] = jax.nn.gelu,
        dropout: float = 0.0,
        *,
        rngs: nnx.Rngs,
    ):
        super().__init__()

        self.n_layers = n_layers
        self.in_channels = in_channels
        self.out_channels = in_channels if out_channels is None else out_channels
        self.hidden_channels = in_channels if hidden_channels is None else hidden_channels

        self.non_linearity = non_linearity

        # Dropout layers (one per layer, like PyTorch)
        if dropout > 0.0:
            self.dropouts: Optional[nnx.List[nnx.Module]] = nnx.List([
                nnx.Dropout(rate=dropout, rngs=rngs) for _ in range(n_layers)
            ])
        else:
            self.dropouts = None

        # Build linear layers
        self.fcs = nnx.List([])
        for i in range(n_layers):
            if i == 0 and i == (n_layers - 1):
                # Single layer: input -> output
                lin = nnx.Linear(
                    rngs=rngs,
                    in_features=self.in_channels,
                    out_features=self.out_channels,
                )
            elif i == 0:
                # First layer: input -> hidden
                lin = nnx.Linear(
                    rngs=rngs,
                    in_features=self.in_channels,
                    out_features=self.hidden_channels,
                )
            elif i == (n_layers - 1):
                # Last layer: hidden -> output
                lin = nnx.Linear(
                    rngs=rngs,
                    in_features=self.hidden_channels,
                    out_features=self.out_channels,
                )
            else:
                # Internal: hidden -> hidden
                lin = nnx.Linear(
                    rngs=rngs,
                    in_features=self.hidden_channels,
                    out_features=self.hidden_channels,
                )
            self.fcs.append(lin)

    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        size = x.shape  # (B, d1, ..., dn, C_in)
        B = size[0]
        spatial_dims = size[1:-1]
        C_in = size[-1]

        assert (
            C_in == self.in_channels
        ), f"Expected last dim (channels) = {self.in_channels}, got {C_in}"

        # Flatten spatial dims: (B, d1, ..., dn, C) -> (B, L, C)
        L = int(jnp.prod(jnp.array(spatial_dims))) if spatial_dims else 1
        x = x.reshape((B, L, C_in))

        # Apply MLP across the last dimension (C), broadcasting over (B, L)
        for i, fc in enumerate(self.fcs):
            x = fc(x)  # Linear along last axis
            if i < self.n_layers - 1:
                x = self.non_linearity(x)
            if self.dropouts is not None:
                x = self.dropouts[i](x)

        # Restore original spatial dims with new channels
        x = x.reshape((B, *spatial_dims, self.out_channels))
        return x


@nnx.jit  # scaffolding: the FNO's jitted forward/train step that calls the channel MLP
def _forward(model, x):  # scaffolding
    return model(x)  # scaffolding


mlp = ChannelMLP(in_channels=4, out_channels=2, hidden_channels=8, rngs=nnx.Rngs(0))  # scaffolding
x = jnp.ones((2, 6, 5, 4))  # scaffolding: (B, d1, d2, C) channels-last field
try:  # scaffolding
    for _ in range(2):  # scaffolding
        y = _forward(mlp, x)  # scaffolding
    print(y.shape)  # scaffolding
    _report({"jit(_forward)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
