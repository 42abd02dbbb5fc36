# source: https://github.com/newalexander/pinn-jax/blob/5bc9b6f095c44dc9b7c5ae587355b1f8ca2003e2/pinn_jax/problems/odes.py
# expect: jit-in-loop-or-body at line 133
# runtime: COMPILES 4 CALLS 4
# why: OrdinaryDiffEq.get_loss_components defines a fresh @jit predict() closure on every call, and the training loop calls it through log_error_records every log_every epochs, so predict is traced and compiled again at every logging step.

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
# pinn_jax/problems/odes.py (OrdinaryDiffEq methods), derivatives.py (get_batch_jacobian) and models.py (MLP) at 5bc9b6f
import numpy as np

from jax import numpy as jnp, random, jit, value_and_grad, vmap, jacfwd
from flax import linen as nn
from flax.core.frozen_dict import FrozenDict
from flax.training.train_state import TrainState
from optax import adam, apply_updates
from typing import Callable, Dict, Union, List, Tuple, Sequence

from jax.tree_util import tree_map as jax_tree_map  # scaffolding
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



class MLP(nn.Module):
    """standard multilayer perceptron"""
    n_features: Sequence[int]  # feature size of each layer
    activation: Callable = nn.tanh
    layers = None

    # since `nn.Module`s are python 3.7 `Dataclass`es, use `setup`  rather than `__init__`
    # see: https://flax.readthedocs.io/en/latest/flax.linen.html#flax.linen.Module
    def setup(self):
        self.layers = [nn.Dense(n_feat) for n_feat in self.n_features]

    def __call__(self, inputs: jnp.ndarray) -> jnp.ndarray:
        x = inputs
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i != len(self.layers) - 1:
                x = self.activation(x)
        return x


class OrdinaryDiffEq:  # (AbstractProblem, ABC) bases and the config/records/paths machinery are left out
    def __init__(self, ode, time_min, time_max, ic_vals, ic_fd_vals, model, n_interior):  # scaffolding: trimmed __init__
        self.interior_points = jnp.array(np.linspace(time_min, time_max, num=n_interior)[:, None])
        self.initial_points = time_min * jnp.ones((1, 1))
        params = model().init(random.PRNGKey(0), self.initial_points)  # scaffolding
        self.state = TrainState.create(apply_fn=model().apply, params=params, tx=adam(1e-3))  # scaffolding
        self.ode = ode
        self.ic_vals = ic_vals
        self.ic_fd_vals = ic_fd_vals

    def get_residual_loss_func(self):
        """
        :return: (n_interior, ) vector of residual errors summed over all state variables
        """
        def get_residual_loss(params: FrozenDict) -> jnp.ndarray:
            residuals = (self.ode(params, self.interior_points) ** 2).sum(axis=1)
            return residuals

        return get_residual_loss

    def get_ic_loss_func(self):
        """
        :return: scalar of initial condition errors, summed over all state variables
        """
        def get_ic_loss(params: FrozenDict) -> jnp.ndarray:
            u = self.state.apply_fn(params, self.initial_points)
            ic_errors = ((u - self.ic_vals) ** 2).sum()
            return ic_errors

        return get_ic_loss

    def get_ic_fd_loss_func(self):
        """
        :return: scalar of initial condition errors for first derivative of solution, summed over all state variables
        """
        batch_jacobian = get_batch_jacobian(self.state.apply_fn)

        def get_ic_fd_loss(params: FrozenDict) -> jnp.ndarray:
            u_t = batch_jacobian(params, self.initial_points).squeeze(-1)
            ic_fd_errors = ((u_t - self.ic_fd_vals) ** 2).sum()
            return ic_fd_errors

        def get_zero(_):
            return np.array([0.0])

        if self.ic_fd_vals is not None:
            return get_ic_fd_loss
        else:
            return get_zero

    def get_loss_components(self):
        residual_loss_func = self.get_residual_loss_func()
        ic_loss_func = self.get_ic_loss_func()
        ic_fd_loss_func = self.get_ic_fd_loss_func()

        @jit
        def predict():
            return residual_loss_func(self.state.params).mean(), ic_loss_func(self.state.params), ic_fd_loss_func(self.state.params)

        residual_loss, ic_loss, ic_fd_loss = predict()
        return {'residual': float(residual_loss), 'ic_error': float(ic_loss), 'ic_fd_error': float(ic_fd_loss)}


def model(): return MLP((16, 16, 1))  # scaffolding
batch_jacobian_u = get_batch_jacobian(model().apply)  # scaffolding
def decay_ode(params, t):  # scaffolding: u' + u = 0
    return batch_jacobian_u(params, t).squeeze(-1) + model().apply(params, t)  # scaffolding

problem = OrdinaryDiffEq(decay_ode, 0.0, 1.0, jnp.ones((1, 1)), -jnp.ones((1,)), model, 32)  # scaffolding
error_records = []  # scaffolding
for epoch in range(20):  # scaffolding: stands in for _train's epoch loop
    problem.state = problem.state.replace(params=jax_tree_map(lambda p: p * 0.99, problem.state.params))  # scaffolding: a training step
    if epoch % 5 == 0:  # scaffolding: log_error_records every config['log_every'] epochs
        error_records.append(problem.get_loss_components())  # scaffolding
_report({"jit(predict)"}, 4)
