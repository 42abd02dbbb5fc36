# source: https://github.com/newalexander/pinn-jax/blob/5bc9b6f095c44dc9b7c5ae587355b1f8ca2003e2/pinn_jax/problems/pdes.py
# expect: jit-in-loop-or-body at line 87
# runtime: COMPILES 4 CALLS 4
# why: PartialDiffEq.get_loss_components wraps a new @jit get_residuals closure (and jit(self.state.apply_fn) for the condition functions) on every call; it runs from log_error_records every log_every epochs, so get_residuals recompiles at every logging step.

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
# pinn_jax/problems/pdes.py (PartialDiffEq.get_loss_components) and models.py (MLP) at 5bc9b6f
import numpy as np

from jax import numpy as jnp, jit, value_and_grad, random
from jax.tree_util import tree_map  # scaffolding: pdes.py imports tree_map from jax, removed in jax 0.10.2
from flax import linen as nn
from flax.core.frozen_dict import FrozenDict
from flax.training.train_state import TrainState
from optax import adam
from typing import Callable, Dict, Union, List, Tuple, Sequence
from jaxtyping import Float, Bool, Array  # `Array` is an alias for `jax.numpy.ndarray`

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


class GeometryXTime:  # scaffolding: stands in for pinn_jax.geometry.GeometryXTime (not used: no time axis here)
    pass

class UnitSquare:  # scaffolding: stands in for a pinn_jax.geometry Geometry
    def random_points(self, n):  # scaffolding
        return np.random.default_rng().uniform(size=(n, 2))  # scaffolding

class PartialDiffEq:  # (AbstractProblem, ABC) base, config validation, records and the training loop are left out
    def __init__(self, pde, geom, model, config):  # scaffolding: trimmed __init__
        self.pde, self.geom, self.config = pde, geom, config
        params = model().init(random.PRNGKey(0), jnp.zeros((1, 2)))  # scaffolding
        self.state = TrainState.create(apply_fn=model().apply, params=params, tx=adam(1e-3))  # scaffolding
        self.bc_fn = self.ic_fn = self.psc_fn = None
        self.bcs, self.ics, self.pscs, self.anchor_points = {}, {}, {}, {}  # scaffolding: no boundary/initial/point-set conditions

    def get_loss_components(self) -> Dict[str, np.ndarray]:
        interior_points = jnp.array(self.geom.random_points(self.config['n_interior']))
        if self.config['n_boundary']:
            boundary_points = self.geom.random_boundary_points(self.config['n_boundary'])
        else:
            boundary_points = None
        if isinstance(self.geom, GeometryXTime) and (self.config['n_initial'] > 0):
            initial_points = jnp.array(self.geom.random_initial_points(self.config['n_initial']))
        else:
            initial_points = None

        @jit
        def get_residuals(points: Float[Array, "n_points n_inputs"]) -> Dict[str, jnp.ndarray]:
            return self.pde(self.state.params, points)

        # some problems impose conditions on functions of state variables
        bc_fn = jit(self.state.apply_fn) if self.bc_fn is None else jit(self.bc_fn)
        ic_fn = jit(self.state.apply_fn) if self.ic_fn is None else jit(self.ic_fn)
        psc_fn = jit(self.state.apply_fn) if self.psc_fn is None else jit(self.psc_fn)

        loss_components = get_residuals(interior_points)

        for psc_id in self.pscs.keys():
            point_set_fields = psc_fn(self.state.params, self.anchor_points[psc_id])
            loss_components[psc_id] = self.pscs[psc_id].error(None, point_set_fields)

        for bc_name, bc in self.bcs.items():
            bc_points = bc.filter(boundary_points)

            if bc_points.shape[0] > 0:
                bc_points = jnp.array(bc_points)
                bc_fields = bc_fn(self.state.params, bc_points)
                loss_components[bc_name] = bc.error(bc_points, bc_fields)
            else:
                loss_components[bc_name] = np.nan

        for ic_id in self.ics.keys():
            ic_fields = ic_fn(self.state.params, initial_points)
            loss_components[ic_id] = self.ics[ic_id].error(initial_points, ic_fields)

        loss_components = {key: float((np.array(value).squeeze()**2).mean()) for key, value in loss_components.items()}
        return loss_components


def model(): return MLP((16, 16, 1))  # scaffolding
def laplace_pde(params, points):  # scaffolding: residual of u_xx + u_yy = 0 via nested jacobians
    from jax import vmap, hessian  # scaffolding
    u = lambda p: model().apply(params, p[None, :])[0, 0]  # scaffolding
    h = vmap(hessian(u))(points)  # scaffolding
    return {'residual': h[:, 0, 0] + h[:, 1, 1]}  # scaffolding

problem = PartialDiffEq(laplace_pde, UnitSquare(), model, {'n_interior': 64, 'n_boundary': 0, 'n_initial': 0})  # scaffolding
error_records = []  # scaffolding
for epoch in range(20):  # scaffolding: stands in for _train's epoch loop
    problem.state = problem.state.replace(params=tree_map(lambda p: p * 0.99, problem.state.params))  # scaffolding: a training step
    if epoch % 5 == 0:  # scaffolding: log_error_records every config['log_every'] epochs
        error_records.append(problem.get_loss_components())  # scaffolding
_report({"jit(get_residuals)"}, 4)
