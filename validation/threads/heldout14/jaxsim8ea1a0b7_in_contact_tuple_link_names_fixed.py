# source: https://github.com/gbionics/jaxsim/commit/8ea1a0b7
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: the set is only used for the membership check, names_to_idxs receives the original tuple (hashable), and the contact bodies are compared as an array; three calls compile in_contact once.

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
import functools
from typing import Sequence

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class ContactParameters:  # scaffolding: collidable points and their parent links
    point: jax.Array
    body: tuple = struct.field(pytree_node=False)


@struct.dataclass
class KinDynParameters:  # scaffolding
    contact_parameters: ContactParameters


class FlatTerrain:  # scaffolding
    def height(self, x, y):
        return 0.0 * x


@struct.dataclass
class JaxSimModel:  # scaffolding: js.model.JaxSimModel reduced to what in_contact reads
    kin_dyn_parameters: KinDynParameters
    _link_names: tuple = struct.field(pytree_node=False)
    terrain: FlatTerrain = struct.field(pytree_node=False, default_factory=FlatTerrain)

    def link_names(self):
        return self._link_names


@struct.dataclass
class JaxSimModelData:  # scaffolding: only a base height
    base_height: jax.Array


def collidable_point_positions(model, data):  # scaffolding: points move with the base height
    return model.kin_dyn_parameters.contact_parameters.point + jnp.array([0.0, 0.0, 1.0]) * data.base_height


def name_to_idx(model, *, link_name):  # scaffolding: js.link.name_to_idx
    return model.link_names().index(link_name)


@functools.partial(jax.jit, static_argnames="link_names")
def names_to_idxs(
    model: JaxSimModel, *, link_names: Sequence[str]
) -> jax.Array:
    return jnp.array(
        [name_to_idx(model=model, link_name=name) for name in link_names],
    ).astype(int)


class js:  # scaffolding: the jaxsim.api namespace used below
    class link:
        names_to_idxs = staticmethod(names_to_idxs)


@functools.partial(jax.jit, static_argnames=["link_names"])
def in_contact(
    model: JaxSimModel,
    data: JaxSimModelData,
    *,
    link_names: tuple[str, ...] | None = None,
) -> jax.Array:
    """
    Return whether the links are in contact with the terrain.
    """

    link_names = link_names if link_names is not None else model.link_names()

    if set(link_names).difference(model.link_names()):
        raise ValueError("One or more link names are not part of the model")

    W_p_Ci = collidable_point_positions(model=model, data=data)

    terrain_height = jax.vmap(lambda x, y: model.terrain.height(x=x, y=y))(
        W_p_Ci[:, 0], W_p_Ci[:, 1]
    )

    below_terrain = W_p_Ci[:, 2] <= terrain_height

    links_in_contact = jax.vmap(
        lambda link_index: jnp.where(
            jnp.array(model.kin_dyn_parameters.contact_parameters.body) == link_index,
            below_terrain,
            jnp.zeros_like(below_terrain, dtype=bool),
        ).any()
    )(js.link.names_to_idxs(link_names=link_names, model=model))

    return links_in_contact


# scaffolding: two feet with two collidable points each, checked at three base heights
model = JaxSimModel(
    kin_dyn_parameters=KinDynParameters(ContactParameters(
        point=jnp.array([[0.1, 0.0, 0.0], [-0.1, 0.0, 0.0], [0.1, 0.2, 0.0], [-0.1, 0.2, 0.0]]),
        body=(1, 1, 2, 2))),
    _link_names=("base", "left_foot", "right_foot"),
)
calls = 0
try:
    for h in (0.1, 0.0, -0.05):
        contact = in_contact(model, JaxSimModelData(base_height=jnp.asarray(h)), link_names=("left_foot", "right_foot"))
        calls += 1
    _report({"jit(in_contact)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
