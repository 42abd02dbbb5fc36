# source: https://github.com/CPShub/LecturePhysicsAwareML/pull/2
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: train() jits make_step and compute_loss inside its body and calls the jitted compute_loss from the jitted make_step; train is called once, the static half of the eqx partition is hashable and the dataloader drops ragged batches, so make_step compiles once for 5 steps.
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
from typing import Tuple

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax
from jaxtyping import Array, PRNGKeyArray


class px:  # scaffolding: stand-in for paramax (not installed): NonTrainable wraps an array, unwrap strips it
    class NonTrainable(eqx.Module):  # scaffolding
        tree: Array  # scaffolding

    @staticmethod
    def unwrap(tree):  # scaffolding
        return jax.tree.map(lambda n: jax.lax.stop_gradient(n.tree) if isinstance(n, px.NonTrainable) else n, tree, is_leaf=lambda n: isinstance(n, px.NonTrainable))  # scaffolding


paramax = px  # scaffolding


# PINNs/paml_pinns/utils.py (PR #2, fb0c85e)
def dataloader(arrays, batch_size):
    dataset_size = arrays[0].shape[0]
    assert all(array.shape[0] == dataset_size for array in arrays)
    indices = np.arange(dataset_size)
    while True:
        perm = np.random.permutation(indices)
        start = 0
        end = batch_size
        while end <= dataset_size:
            batch_perm = perm[start:end]
            yield tuple(array[batch_perm] for array in arrays)
            start = end
            end = start + batch_size


# PINNs/paml_pinns/train.py (PR #2, fb0c85e)
def train(
    model: eqx.Module,
    x: Array,
    weights: dict[str, float],
    *,
    steps: int,
    batch_size: int = 32,
    learning_rate: float = 1e-3,
):
    @partial(jax.jit, static_argnums=1)
    @jax.value_and_grad
    def compute_loss(params, static, weights, x):
        model = eqx.combine(params, static)
        model = paramax.unwrap(model)
        return model.loss(weights, x)

    @partial(jax.jit, static_argnums=1)
    def make_step(params, static, weights, x, opt_state):
        loss, grads = compute_loss(params, static, weights, x)
        updates, opt_state = optim.update(grads, opt_state)
        params = eqx.apply_updates(params, updates)
        return loss, params, opt_state

    params, static = eqx.partition(model, eqx.is_array)
    optim = optax.adam(learning_rate)
    opt_state = optim.init(params)

    iter_data = dataloader((x,), batch_size)

    loss = None
    for step, (x,) in zip(range(steps), iter_data):
        loss, params, opt_state = make_step(params, static, weights, x, opt_state)
        loss = loss.item()
        if step % 1000 == 0:
            print(f"Step: {step},\tLoss: {loss}")
    print(f"\nTraining finished, final loss={loss}")

    model = eqx.combine(params, static)

    return model


# PINNs/paml_pinns/lebb/models.py (PR #2, fb0c85e; docstrings cut)
class PINN(eqx.Module):
    nn: eqx.Module
    EI: float
    L: float
    q: float
    w_bc_coords: px.NonTrainable | None
    w_bc_values: px.NonTrainable | None
    w_x_bc_coords: px.NonTrainable | None
    w_x_bc_values: px.NonTrainable | None
    M_bc_coords: px.NonTrainable | None
    M_bc_values: px.NonTrainable | None
    Q_bc_coords: px.NonTrainable | None
    Q_bc_values: px.NonTrainable | None

    def __init__(
        self,
        EI: float,
        L: float,
        q: float,
        bc: dict[str, Array | None],
        *,
        key: PRNGKeyArray,
    ):
        self.nn = eqx.nn.MLP("scalar", "scalar", 8, 2, jax.nn.tanh, key=key)
        self.EI = EI
        self.L = L
        self.q = q
        if bc["w_bc_coords"] is None:
            self.w_bc_coords = None
            self.w_bc_values = None
        else:
            self.w_bc_coords = px.NonTrainable(bc["w_bc_coords"])
            self.w_bc_values = px.NonTrainable(bc["w_bc_values"])
        if bc["w_x_bc_coords"] is None:
            self.w_x_bc_coords = None
            self.w_x_bc_values = None
        else:
            self.w_x_bc_coords = px.NonTrainable(bc["w_x_bc_coords"])
            self.w_x_bc_values = px.NonTrainable(bc["w_x_bc_values"])
        if bc["M_bc_coords"] is None:
            self.M_bc_coords = None
            self.M_bc_values = None
        else:
            self.M_bc_coords = px.NonTrainable(bc["M_bc_coords"])
            self.M_bc_values = px.NonTrainable(bc["M_bc_values"])
        if bc["Q_bc_coords"] is None:
            self.Q_bc_coords = None
            self.Q_bc_values = None
        else:
            self.Q_bc_coords = px.NonTrainable(bc["Q_bc_coords"])
            self.Q_bc_values = px.NonTrainable(bc["Q_bc_values"])

    def __call__(self, x: Array) -> Array:
        w = self.w(x)
        w_x = self.w_x(x)
        M = self.M(x)
        Q = self.Q(x)
        w_xxxx = self.w_xxxx(x)
        return w, w_x, M, Q, w_xxxx

    def forward(self, x: Array) -> Tuple[Array, ...]:
        x = x / self.L
        return self.nn(x)

    def w(self, x: Array) -> Array:
        return self.forward(x)

    def w_x(self, x: Array) -> Array:
        return jax.grad(self.w)(x)

    def w_xx(self, x: Array) -> Array:
        return jax.grad(self.w_x)(x)

    def M(self, x: Array) -> Array:
        return - self.EI * self.w_xx(x)

    def w_xxx(self, x: Array) -> Array:
        return jax.grad(self.w_xx)(x)

    def Q(self, x: Array) -> Array:
        return - self.EI * self.w_xxx(x)

    def w_xxxx(self, x: Array) -> Array:
        return jax.grad(self.w_xxx)(x)

    def res(self, x: Array):
        w_xxxx = self.w_xxxx(x)
        rw = self.EI * w_xxxx - self.q
        return rw

    def losses(self, x):
        if self.w_bc_coords is None:
            w_bc_loss = jnp.array(0.)
        else:
            w_bc_pred = jax.vmap(self.w)(self.w_bc_coords)
            w_bc_loss = jnp.mean((w_bc_pred - self.w_bc_values)**2)
        if self.w_x_bc_coords is None:
            w_x_bc_loss = jnp.array(0.)
        else:
            w_x_bc_pred = jax.vmap(self.w_x)(self.w_x_bc_coords)
            w_x_bc_loss = jnp.mean((w_x_bc_pred - self.w_x_bc_values)**2)
        if self.M_bc_coords is None:
            M_bc_loss = jnp.array(0.)
        else:
            M_bc_pred = jax.vmap(self.M)(self.M_bc_coords)
            M_bc_loss = jnp.mean((M_bc_pred - self.M_bc_values)**2)
        if self.Q_bc_coords is None:
            Q_bc_loss = jnp.array(0.)
        else:
            Q_bc_pred = jax.vmap(self.Q)(self.Q_bc_coords)
            Q_bc_loss = jnp.mean((Q_bc_pred - self.Q_bc_values)**2)
        rw_pred = jax.vmap(self.res)(x)
        rw_loss = jnp.mean(rw_pred**2)
        loss_dict = {
            "w_bc": w_bc_loss,
            "w_x_bc": w_x_bc_loss,
            "M_bc": M_bc_loss,
            "Q_bc": Q_bc_loss,
            "rw": rw_loss
        }
        return loss_dict

    def loss(self, weights, x):
        losses = self.losses(x)
        weighted_losses = jax.tree.map(lambda x, y: x * y, losses, weights)
        loss = jax.tree.reduce(lambda x, y: x + y, weighted_losses)
        return loss


# scaffolding: a simply supported beam (bc case 1), 100 collocation points, 5 steps of batch 32
bc = {"w_bc_coords": jnp.array([0.0, 1.0]), "w_bc_values": jnp.array([0.0, 0.0]),  # scaffolding
      "w_x_bc_coords": None, "w_x_bc_values": None,  # scaffolding
      "M_bc_coords": jnp.array([0.0, 1.0]), "M_bc_values": jnp.array([0.0, 0.0]),  # scaffolding
      "Q_bc_coords": None, "Q_bc_values": None}  # scaffolding
model = PINN(EI=1.0, L=1.0, q=1.0, bc=bc, key=jax.random.PRNGKey(0))  # scaffolding
weights = {"w_bc": 1.0, "w_x_bc": 1.0, "M_bc": 1.0, "Q_bc": 1.0, "rw": 1.0}  # scaffolding
x = np.linspace(0.0, 1.0, 100, dtype=np.float32)  # scaffolding
model = train(model, x, weights, steps=5, batch_size=32)  # scaffolding
_report({"jit(make_step)", "jit(compute_loss)"}, 5)  # scaffolding
