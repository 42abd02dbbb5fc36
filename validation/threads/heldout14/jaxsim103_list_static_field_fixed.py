# source: https://github.com/gbionics/jaxsim/issues/103
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The fix from PR #105 stores body as a plain list in the Static field, which compares with a scalar truth value; both calls succeed.
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
import types
import typing

import jax


# scaffolding: jax_dataclasses is not installed; a small stand-in for pytree_dataclass/Static
# (fields annotated Static[...] go into the pytree metadata, the rest are children)
class _StaticMarker:
    pass


class _StaticAlias:
    def __getitem__(self, t):
        return typing.Annotated[t, _StaticMarker]


def _pytree_dataclass(cls):
    cls = dataclasses.dataclass(frozen=True)(cls)
    hints = typing.get_type_hints(cls, include_extras=True)
    meta = [f.name for f in dataclasses.fields(cls) if _StaticMarker in getattr(hints[f.name], "__metadata__", ())]
    data = [f.name for f in dataclasses.fields(cls) if f.name not in meta]
    jax.tree_util.register_dataclass(cls, data_fields=data, meta_fields=meta)
    return cls


jax_dataclasses = types.SimpleNamespace(pytree_dataclass=_pytree_dataclass, Static=_StaticAlias())
# end scaffolding

import jax.numpy as jnp
import pathlib
import numpy.typing as npt

from typing import Dict, Union

import jax.lax
import numpy as np
Static = jax_dataclasses.Static  # scaffolding: from jax_dataclasses import Static


@jax_dataclasses.pytree_dataclass
class MWE103GroundContact:
    body: Static[list] = dataclasses.field(default_factory=lambda: [])

    @staticmethod
    def build_from() -> "MWE103GroundContact":
        # Build the object
        gc = MWE103GroundContact(body=[0] * 8)
        return gc

def local_total_mass(model: MWE103GroundContact) -> float:
    return 1.0

dummy_contact1 = MWE103GroundContact.build_from()
dummy_contact2 = MWE103GroundContact.build_from()

local_total_mass_jit1 = jax.jit(local_total_mass)
local_total_mass_jit2 = jax.jit(local_total_mass)

_ = local_total_mass_jit1(model=dummy_contact1)
_ = local_total_mass_jit2(model=dummy_contact2)
_report({"jit(local_total_mass)"}, 2)  # scaffolding
