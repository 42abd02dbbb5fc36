# source: https://github.com/newalexander/pinn-jax/blob/5bc9b6f095c44dc9b7c5ae587355b1f8ca2003e2/pinn_jax/models.py
# expect: jit-in-loop-or-body at line 132
# runtime: COMPILES 3 CALLS 3
# why: test_periodic_mlp_xt wraps jit around mlp().apply three times, and mlp() builds a fresh PeriodicMLPxt each time, so every jit(mlp().apply) is a new bound method with an empty cache and the same forward pass is compiled three times.

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
# pinn_jax/models.py and pinn_jax/derivatives.py at 5bc9b6f (imports gathered here)
from jax import numpy as jnp, vmap, jacfwd
from flax import linen as nn
from flax.core import FrozenDict
from typing import Sequence, Callable


def get_batch_jacobian(func: Callable, argnums=1, in_axes=(None, 0)) -> Callable:
    """
    calculate the batch-wise jacobian of a function with respect to its input argument (not its weights)

    - ``func`` implements a neural network ``f: R^n_input -> R^n_output``
      - by default, ``func`` has signature ``f(params, points) = prediction``
    - ``points`` should be of dimension ``n_batch x n_input``
    - returns tensor ``J`` of size ``n_batch x n_output x n_input``,
            where ``J[b, o, i] = partial_i f_o(x[b])``"""
    jacobian = jacfwd(func, argnums=argnums)

    def batch_jacobian(params: FrozenDict, points: jnp.ndarray) -> jnp.ndarray:
        return vmap(jacobian, in_axes=in_axes)(params, points)

    return batch_jacobian


def get_batch_hessian(func: Callable, argnums=1, in_axes=(None, 0)) -> Callable:
    """calculate the batch-wise hessian of a function with respect to its input argument (not its weights)

    - ``func`` implements a neural network ``f: R^n_input -> R^n_output``
          - has signature ``f(params, points) = prediction``
    - ``points`` should be of dimension ``n_batch x n_input``
    - returns tensor ``H`` of size ``n_batch x n_output x n_input x n_input``,
                where ``H[b, o, i1, i2] = partial_i1 partial_i2 f_o(x[b])``
    - this uses forward-over-forward automatic differentiation, which has a decent chance of being most efficient
       when ``n_input \approx n_output`` and both are fairly small
    """
    hessian = jacfwd(jacfwd(func, argnums=argnums), argnums=argnums)

    def batch_hessian(params: FrozenDict, points: jnp.ndarray) -> jnp.ndarray:
        return vmap(hessian, in_axes=in_axes)(params, points)

    return batch_hessian

class PeriodicMLPxt(nn.Module):
    """MLP with periodicity over a 1d regular domain."""
    n_features: Sequence[int]  # feature size of each normal layer
    n_periodic_features: int  # feature sizes of each spatial dimension's encoder
    frequency: float  # periodicity of each spatial dimension's encoder
    activation: Callable = nn.tanh
    layers = None
    ks = None

    def setup(self):
        self.ks = jnp.arange(1, self.n_periodic_features + 1)
        self.layers = [nn.Dense(n_feat) for n_feat in self.n_features[1:]]

    def __call__(self, inputs: jnp.ndarray) -> jnp.ndarray:
        """
        for an input (x, t), calculate:
        - v = concat([1, t], [cos(k w x): k = 1,...,m], [sin(k w x): k = 1,...,m]) in R^(2 * n_periodic_features + 2)
        - return MLP(v)

        guarantees 1d C^infty periodicity: u(x, t) = u(x + L, t), where L = 2 pi / w

        introduced in: https://arxiv.org/abs/2203.07404
        """
        def encode_inputs(_inputs: jnp.ndarray) -> jnp.ndarray:
            """encode spatial inputs to obey C^infty periodicity"""
            x, t = _inputs[0], _inputs[1]
            v = jnp.hstack([1., t, jnp.cos(self.ks * self.frequency * x), jnp.sin(self.ks * self.frequency * x)])
            return v

        z = vmap(encode_inputs)(inputs.reshape((-1, 2)))
        # `inputs` needs to be a rank-2 array for `vmap` to work properly

        for i, layer in enumerate(self.layers):
            z = layer(z)
            if i != len(self.layers) - 1:
                z = self.activation(z)
        return z


def test_periodic_mlp_xt():
    from jax import random, jit, config as jax_config
    from pinn_jax.derivatives import get_batch_jacobian, get_batch_hessian

    if True:
        jax_config.update('jax_enable_x64', True)

    key_x, key_p = random.split(random.PRNGKey(5678))

    n_input = 2
    n_features = (7, 11)
    n_periodic_features = 3
    frequency = jnp.pi
    lengths = jnp.array([2. * jnp.pi / frequency] + [0.])

    def mlp(): return PeriodicMLPxt(n_features, n_periodic_features, frequency)

    x = random.normal(key_x, (13, n_input))
    x_perturb = x + lengths
    p = mlp().init(key_p, x)
    # print(x.shape, mlp().apply(p, x).shape)

    print(jit(mlp().apply)(p, x).shape, jit(mlp().apply)(p, x_perturb).shape)
    print(jnp.linalg.norm(jit(mlp().apply)(p, x) - mlp().apply(p, x_perturb)))

    print('now the hard part')
    batch_jacobian = get_batch_jacobian(mlp().apply)
    print(jit(batch_jacobian)(p, x).shape)  # n_batch x n_output x n_input
    print(jnp.linalg.norm(jit(batch_jacobian)(p, x) - jit(batch_jacobian)(p, x_perturb)))

    print('now the harder part')
    batch_hessian = get_batch_hessian(mlp().apply)
    print(jit(batch_hessian)(p, x).shape)
    print(jnp.linalg.norm(jit(batch_jacobian)(p, x) - jit(batch_jacobian)(p, x_perturb)))


import sys, types  # scaffolding: the test imports pinn_jax.derivatives; point it at the functions above
_pkg = types.ModuleType("pinn_jax"); _der = types.ModuleType("pinn_jax.derivatives")  # scaffolding
_der.get_batch_jacobian, _der.get_batch_hessian = get_batch_jacobian, get_batch_hessian  # scaffolding
sys.modules["pinn_jax"], sys.modules["pinn_jax.derivatives"] = _pkg, _der  # scaffolding
test_periodic_mlp_xt()  # scaffolding
_report({"jit(apply)"}, 3)
