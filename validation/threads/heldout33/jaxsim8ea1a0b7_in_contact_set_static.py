# source: https://github.com/ami-iit/jaxsim/commit/8ea1a0b74dac7b20c5a5564da041022c635c6f7b
# expect: unhashable-static at line 155
# runtime: ERROR ValueError
# why: in_contact rebinds its static link_names tuple to a Python set (walrus in the validity check) and then passes that set to names_to_idxs, which is jitted with static_argnames='link_names'; hashing the set while tracing raises ValueError (non-hashable static argument).

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
import dataclasses  # scaffolding
import functools
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np


# --- scaffolding: minimal stand-ins for jaxsim's JaxSimModel / JaxSimModelData pytrees ---
@dataclasses.dataclass(frozen=True)
class FlatTerrain:  # scaffolding
    z: float = 0.0

    def height(self, x, y):
        return jnp.array(self.z, dtype=float)


@dataclasses.dataclass(frozen=True)
class ContactParameters:  # scaffolding: body = parent link index of each collidable point (static)
    body: tuple
    point: tuple


@dataclasses.dataclass(frozen=True)
class KinDynParameters:  # scaffolding
    link_names: tuple
    contact_parameters: ContactParameters


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class JaxSimModel:  # scaffolding: everything static, as in jaxsim
    kin_dyn_parameters: KinDynParameters
    terrain: FlatTerrain

    def link_names(self):
        return self.kin_dyn_parameters.link_names

    def tree_flatten(self):
        return (), (self.kin_dyn_parameters, self.terrain)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*aux)


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class JaxSimModelData:  # scaffolding: only the base position is dynamic here
    base_position: jax.Array

    def tree_flatten(self):
        return (self.base_position,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def collidable_point_positions(model, data):  # scaffolding: points rigidly attached to the base
    return jnp.array(model.kin_dyn_parameters.contact_parameters.point) + data.base_position


# --- from jaxsim/api/link.py at 8ea1a0b7^ (type hints shortened) ---
@functools.partial(jax.jit, static_argnames="link_name")
def name_to_idx(model, *, link_name: str):
    """
    Convert the name of a link to its index.
    """

    if link_name in model.kin_dyn_parameters.link_names:
        return (
            jnp.array(
                np.argwhere(np.array(model.kin_dyn_parameters.link_names) == link_name)
            )
            .squeeze()
            .astype(int)
        )
    return jnp.array(-1).astype(int)


@functools.partial(jax.jit, static_argnames="link_names")
def names_to_idxs(
    model, *, link_names: Sequence[str]
):
    """
    Convert a sequence of link names to their corresponding indices.
    """

    return jnp.array(
        [name_to_idx(model=model, link_name=name) for name in link_names],
    ).astype(int)


# --- from jaxsim/api/contact.py at 8ea1a0b7^ ---
@functools.partial(jax.jit, static_argnames=["link_names"])
def in_contact(
    model,
    data,
    *,
    link_names: tuple[str, ...] | None = None,
):
    """
    Return whether the links are in contact with the terrain.
    """

    link_names = link_names if link_names is not None else model.link_names()

    if (link_names := set(link_names)) and link_names.difference(model.link_names()):
        raise ValueError("One or more link names are not part of the model")

    W_p_Ci = collidable_point_positions(model=model, data=data)

    terrain_height = jax.vmap(lambda x, y: model.terrain.height(x=x, y=y))(
        W_p_Ci[:, 0], W_p_Ci[:, 1]
    )

    below_terrain = W_p_Ci[:, 2] <= terrain_height

    links_in_contact = jax.vmap(
        lambda link_index: jnp.where(
            model.kin_dyn_parameters.contact_parameters.body == link_index,
            below_terrain,
            jnp.zeros_like(below_terrain, dtype=bool),
        ).any()
    )(names_to_idxs(link_names=link_names, model=model))

    return links_in_contact


# scaffolding: a 3-link model with four collidable points, base dropping through z = 0
model = JaxSimModel(
    kin_dyn_parameters=KinDynParameters(
        link_names=("base", "left_foot", "right_foot"),
        contact_parameters=ContactParameters(
            body=(1, 1, 2, 2),
            point=((0.1, 0.1, -0.5), (-0.1, 0.1, -0.5), (0.1, -0.1, -0.5), (-0.1, -0.1, -0.4)),
        ),
    ),
    terrain=FlatTerrain(),
)
n_calls = 4  # scaffolding
try:  # scaffolding
    for step in range(n_calls):
        data = JaxSimModelData(base_position=jnp.array([0.0, 0.0, 0.6 - 0.1 * step]))
        contacts = in_contact(model, data, link_names=("left_foot", "right_foot"))
    _report({"jit(in_contact)"}, n_calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
