# source: https://github.com/gbionics/jaxsim/pull/17
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the PR computes a fixed-size boolean support array with lax.cond, so body_index is traced and the Jacobian compiles once for all 4 links.
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


from typing import List, Tuple  # scaffolding
import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
class PhysicsModel:  # scaffolding: cut-down jaxsim PhysicsModel (a pytree), 5 links, one joint each
    def __init__(self, parent, tree):
        self.parent_tuple = tuple(parent)
        self.parent = jnp.array(parent)
        self.X_tree = tree
        self.NB = len(parent)
        self._parent_array_dict = dict(enumerate(parent))

    def tree_flatten(self):  # scaffolding
        return (self.X_tree,), self.parent_tuple

    @classmethod
    def tree_unflatten(cls, aux, children):  # scaffolding
        return cls(aux, children[0])

    def dofs(self):  # scaffolding
        return self.NB - 1

    def motion_subspaces(self, q):  # scaffolding
        return jnp.tile(jnp.eye(6)[:, 2:3], (self.NB, 1, 1))

    def joint_transforms(self, q):  # scaffolding
        qq = jnp.concatenate([jnp.zeros(1), q])
        return jnp.cos(qq)[:, None, None] * jnp.eye(6) + jnp.sin(qq)[:, None, None] * jnp.eye(6, k=1)

    @property
    def tree_transforms(self):  # scaffolding
        return self.X_tree

    def support_body_array_bool(self, body_index):

        active_link = body_index
        κ_bool = jnp.zeros(self.NB, dtype=bool)

        for i in np.flip(np.arange(start=0, stop=self.NB)):

            κ_bool, active_link = jax.lax.cond(
                pred=(i == active_link),
                false_fun=lambda: (κ_bool, active_link),
                true_fun=lambda: (
                    κ_bool.at[active_link].set(True),
                    self.parent[active_link],
                ),
            )

        return κ_bool


def jacobian(model: PhysicsModel, body_index, q):

    S = model.motion_subspaces(q=q)
    i_X_pre = model.joint_transforms(q=q)
    pre_X_λi = model.tree_transforms
    i_X_λi = jnp.zeros_like(i_X_pre)

    i_X_0 = jnp.zeros_like(i_X_pre)
    i_X_0 = i_X_0.at[0].set(jnp.eye(6))

    λ = model.parent

    propagate_kinematics_carry = (i_X_λi, i_X_0)

    def propagate_kinematics(carry, i):

        i_X_λi, i_X_0 = carry

        i_X_λi_i = i_X_pre[i] @ pre_X_λi[i]
        i_X_λi = i_X_λi.at[i].set(i_X_λi_i)

        i_X_0_i = i_X_λi[i] @ i_X_0[λ[i]]
        i_X_0 = i_X_0.at[i].set(i_X_0_i)

        return (i_X_λi, i_X_0), None

    (i_X_λi, i_X_0), _ = jax.lax.scan(
        f=propagate_kinematics,
        init=propagate_kinematics_carry,
        xs=np.arange(start=1, stop=model.NB),
    )

    J = jnp.zeros(shape=(6, 6 + model.dofs()))

    Jb = i_X_0[body_index]
    J = J.at[0:6, 0:6].set(Jb)

    # To make JIT happy, we operate on a boolean version of κ(i).
    # Checking if j ∈ κ(i) is equivalent to: κ_bool(j) is True.
    κ_bool = model.support_body_array_bool(body_index=body_index)

    def compute_jacobian(J, i):
        def update_jacobian(J, i):

            ii = i - 1
            Js_i = i_X_0[body_index] @ jnp.linalg.inv(i_X_0[i]) @ S[i]
            J = J.at[0:6, 6 + ii].set(Js_i.squeeze())

            return J

        J = jax.lax.select(pred=κ_bool[i], on_true=update_jacobian(J, i), on_false=J)
        return J, None

    J, _ = jax.lax.scan(
        f=compute_jacobian, init=J, xs=np.arange(start=1, stop=model.NB)
    )

    return J


model = PhysicsModel([-1, 0, 1, 1, 3], jnp.tile(jnp.eye(6), (5, 1, 1)))  # scaffolding
q = jnp.linspace(0.1, 0.4, 4)  # scaffolding
for body_index in range(1, 5):  # scaffolding: one Jacobian per link
    J = jax.jit(jacobian)(
        model=model, q=q, body_index=body_index  # xfb dropped: scaffolding
    )
_report({"jit(jacobian)"}, 4)  # scaffolding
