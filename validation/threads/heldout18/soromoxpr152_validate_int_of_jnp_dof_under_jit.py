# source: https://github.com/tud-phi/soromox/pull/152
# expect: trace-time-error at line 91
# runtime: ERROR ConcretizationTypeError
# why: validate_against_structure calls int() on a jnp.sum of the segment's basis flags; under the jitted potential that jnp result is a tracer, so updating params inside jit raises.
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


from dataclasses import dataclass, replace  # scaffolding
from typing import ClassVar

import jax
from jax import Array
from jax import numpy as jnp


def dof_Monomial(Bdof: Array, Bodr: Array) -> Array:  # strain_bases.py, as in the repo
    return jnp.sum(Bdof * (Bodr + 1))


class Basis:  # primitives.py, cut to the monomial branch (scaffolding)
    BASISTYPE_MAP = {"monomial": 0}
    DOF_BRANCHES = [lambda operand: dof_Monomial(operand[0], operand[1])]


class Joint:  # scaffolding: primitives.Joint's dof table, cut
    DICT_JOINT_TYPE_DOF = {"fixed": 0}


@dataclass(frozen=True)  # scaffolding: static GVS layout (structures.py), cut
class _Seg:
    joint: object
    basis: object
    num_gauss_points: int = 7


@dataclass(frozen=True)  # scaffolding
class GVSStructure:
    segments: tuple
    max_num_gauss_points: int = None
    max_dof: int = None


@dataclass(frozen=True)  # scaffolding: GVSParams fields cut to what the check reads
class _Link:
    length: Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class GVSParams:  # scaffolding: base class and validate() cut
    link: _Link
    reference_strain: Array
    joint_stiffness: Array
    base_pose: Array

    def validate(self) -> None:  # scaffolding
        pass

    def validate_against_structure(self, structure) -> None:
        """Validate dynamic GVS arrays against the static padded layout."""
        if not isinstance(structure, GVSStructure):
            raise TypeError("structure must be a GVSStructure instance.")
        if not structure.segments:
            raise ValueError("GVS requires at least one segment.")
        self.validate()
        n_segments = len(structure.segments)
        dofs_joint = [
            Joint.DICT_JOINT_TYPE_DOF[segment.joint.type]
            for segment in structure.segments
        ]
        dofs_link = [
            int(
                Basis.DOF_BRANCHES[Basis.BASISTYPE_MAP[segment.basis.type]](
                    (
                        jnp.asarray(segment.basis.active),
                        jnp.asarray(segment.basis.orders),
                    )
                )
            )
            for segment in structure.segments
        ]
        real_max_dof = max(dofs_joint + dofs_link)
        max_dof = real_max_dof if structure.max_dof is None else structure.max_dof
        if max_dof < real_max_dof:
            raise ValueError(
                "max_dof must be greater than or equal to the maximum DOF in links "
                f"and joints ({real_max_dof}), but got {max_dof}."
            )


class _NS:  # scaffolding
    def __init__(self, **kw):
        self.__dict__.update(kw)


structure = GVSStructure(segments=(_Seg(joint=_NS(type="fixed"), basis=_NS(type="monomial", active=(0, 0, 1, 1, 0, 0), orders=(1, 0, 0, 0, 0, 0))),))  # scaffolding
params = GVSParams(_Link(jnp.ones(1)), jnp.zeros((1, 6)), jnp.zeros((1, 3, 3)), jnp.array([1.0, 0, 0, 0, 0, 0, 0]))  # scaffolding


@jax.jit  # scaffolding: the PR's regression test jits a function that updates base_pose from theta
def potential_for_theta(q, theta):  # scaffolding
    base_pose = jnp.array([jnp.cos(theta / 2), 0.0, 0.0, jnp.sin(theta / 2), 0.0, 0.0, 0.0])  # scaffolding
    new_params = replace(params, base_pose=base_pose)  # scaffolding: GVS.update_params -> with_params
    new_params.validate_against_structure(structure)  # scaffolding
    return jnp.sum(q**2) * new_params.base_pose[0]  # scaffolding


try:  # scaffolding
    for theta in (0.1, 0.2, 0.3):  # scaffolding
        potential_for_theta(jnp.ones(3), theta)  # scaffolding
    _report({"jit(potential_for_theta)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
