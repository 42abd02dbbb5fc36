# source: https://github.com/ami-iit/jaxsim/commit/74920386f929d875f9ea14ab7e753b9c1461f00f
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit wraps the static arrays in HashedNumpyArray (hash of the flattened values, __eq__ via the hash) and exposes them through properties, so equal rebuilt parameters hit the jit cache: one compile for four episodes.

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
import dataclasses
import functools  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np


# scaffolding: stand-in for jax_dataclasses.pytree_dataclass with Static[...] fields
# (static fields become pytree metadata, the rest are leaves)
@dataclasses.dataclass(frozen=True)  # scaffolding: jax_dataclasses.pytree_dataclass in jaxsim
class HashedNumpyArray:  # from jaxsim/utils/wrappers.py
    """
    A class that wraps a numpy array and makes it hashable.

    This is useful for creating particular JAX pytrees.
    For example, to create a pytree with a plain NumPy or JAX NumPy array as static leaf.
    """

    array: jax.Array

    large_array: bool = dataclasses.field(
        default=False, repr=False, compare=False, hash=False
    )

    def get(self) -> jax.Array:
        return self.array

    def __hash__(self) -> int:

        return hash(tuple(np.atleast_1d(self.array).flatten().tolist()))

    def __eq__(self, other: "HashedNumpyArray") -> bool:

        if not isinstance(other, HashedNumpyArray):
            return False

        if self.large_array:
            return np.array_equal(self.array, other.array)

        return hash(self) == hash(other)


@functools.partial(
    jax.tree_util.register_dataclass,
    data_fields=["link_masses"],
    meta_fields=["link_names", "_parent_array", "_support_body_array_bool"],
)
@dataclasses.dataclass(eq=False)
class KynDynParameters:
    r"""
    Class storing the kinematic and dynamic parameters of a model.
    """

    # Static
    link_names: tuple[str]  # Static[tuple[str]]
    _parent_array: HashedNumpyArray  # Static[HashedNumpyArray]
    _support_body_array_bool: HashedNumpyArray  # Static[HashedNumpyArray]

    # Links
    link_masses: jax.Array  # scaffolding: stands in for link_parameters / joint_model / contact_parameters

    @property
    def parent_array(self) -> jax.Array:
        return self._parent_array.get()

    @property
    def support_body_array_bool(self) -> jax.Array:
        return self._support_body_array_bool.get()

    @staticmethod
    def build(model_description) -> "KynDynParameters":
        ordered_links = sorted(
            list(model_description.links_dict.values()),
            key=lambda l: l.index,
        )

        # ===============
        # Tree properties
        # ===============

        # Build the parent array λ(i) of the model.
        # Note: the parent of the base link is not set since it's not defined.
        parent_array_dict = {
            link.index: link.parent.index
            for link in ordered_links
            if link.parent is not None
        }
        parent_array = jnp.array([-1] + list(parent_array_dict.values()), dtype=int)

        def κb(link_index):
            κb = jnp.zeros(len(ordered_links), dtype=bool)

            carry0 = κb, link_index

            def scan_body(carry: tuple, i) -> tuple[tuple, None]:

                κb, active_link_index = carry

                κb, active_link_index = jax.lax.cond(
                    pred=(i == active_link_index),
                    false_fun=lambda: (κb, active_link_index),
                    true_fun=lambda: (
                        κb.at[active_link_index].set(True),
                        parent_array[active_link_index],
                    ),
                )

                return (κb, active_link_index), None

            (κb, _), _ = jax.lax.scan(
                f=scan_body,
                init=carry0,
                xs=jnp.flip(jnp.arange(start=0, stop=len(ordered_links))),
            )

            return κb

        support_body_array_bool = jax.vmap(κb)(
            jnp.arange(start=0, stop=len(ordered_links))
        )

        return KynDynParameters(
            link_names=tuple(l.name for l in ordered_links),
            _parent_array=HashedNumpyArray(array=parent_array),
            _support_body_array_bool=HashedNumpyArray(array=support_body_array_bool),
            link_masses=jnp.array([l.mass for l in ordered_links]),  # scaffolding
        )

    def __eq__(self, other: "KynDynParameters") -> bool:

        if not isinstance(other, KynDynParameters):
            return False

        return hash(self) == hash(other)

    def __hash__(self) -> int:

        return hash(
            (
                hash(self.number_of_links()),
                hash(tuple(jnp.atleast_1d(self.parent_array).flatten().tolist())),
            )
        )

    def number_of_links(self) -> int:
        return len(self.link_names)


# --- scaffolding: a 4-link chain description and an algorithm that uses the static arrays ---
@dataclasses.dataclass
class Link:  # scaffolding
    name: str
    index: int
    mass: float
    parent: "Link | None" = None


@dataclasses.dataclass
class ModelDescription:  # scaffolding
    links_dict: dict


def make_description():  # scaffolding
    base = Link("base", 0, 5.0)
    thigh = Link("thigh", 1, 2.0, base)
    shin = Link("shin", 2, 1.0, thigh)
    foot = Link("foot", 3, 0.5, shin)
    return ModelDescription({l.name: l for l in (base, thigh, shin, foot)})


@jax.jit
def supported_mass(kin_dyn, link_index):  # scaffolding: stand-in for an RBDA reading κb(i)
    return jnp.sum(jnp.where(kin_dyn.support_body_array_bool[link_index], kin_dyn.link_masses, 0.0))


n_calls = 4  # scaffolding
try:  # scaffolding
    for episode in range(n_calls):
        kin_dyn = KynDynParameters.build(model_description=make_description())  # model rebuilt per episode
        m = supported_mass(kin_dyn, 3)
    _report({"jit(supported_mass)"}, n_calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
