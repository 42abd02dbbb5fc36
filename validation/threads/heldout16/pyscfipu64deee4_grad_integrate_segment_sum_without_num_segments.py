# source: https://github.com/graphcore-research/pyscf-ipu/commit/64deee4cbd6e9f81800301b86bfbabe47e076961
# expect: trace-time-error at line 98
# runtime: ERROR ConcretizationTypeError
# why: under jit the orbital_index built by batch_orbitals is a traced array, and segment_sum without num_segments must read max(segment_ids) to size its output, so it raises ConcretizationTypeError.

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


from functools import partial
from typing import Callable, Tuple

import jax
import jax.numpy as jnp
from jax import vmap
from jax.tree_util import tree_map  # jax.tree_map, removed from JAX, imported from jax.tree_util
from jax.ops import segment_sum

import chex  # scaffolding


@chex.dataclass
class Primitive:  # scaffolding: pyscf_ipu.experimental.primitive.Primitive cut to center/alpha
    center: chex.Array
    alpha: chex.Array


@chex.dataclass
class Orbital:  # scaffolding: pyscf_ipu.experimental.orbital.Orbital
    primitives: Tuple[Primitive]
    coefficients: chex.Array

    @property
    def num_primitives(self) -> int:
        return len(self.primitives)


@chex.dataclass
class Basis:  # scaffolding: pyscf_ipu.experimental.basis.Basis
    orbitals: Tuple[Orbital]

    @property
    def num_orbitals(self) -> int:
        return len(self.orbitals)

    @property
    def num_primitives(self) -> int:
        return sum(o.num_primitives for o in self.orbitals)


# pyscf_ipu/experimental/orbital.py
def batch_orbitals(orbitals: Tuple[Orbital]):
    primitives = [p for o in orbitals for p in o.primitives]
    primitives = tree_map(lambda *xs: jnp.stack(xs), *primitives)
    coefficients = jnp.concatenate([o.coefficients for o in orbitals])
    orbital_index = jnp.concatenate(
        [
            i * jnp.ones(o.num_primitives, dtype=jnp.int32)
            for i, o in enumerate(orbitals)
        ]
    )
    return primitives, coefficients, orbital_index


# pyscf_ipu/experimental/nuclear_gradients.py (before the commit; docstring cut)
def grad_integrate(basis: Basis, primitive_op: Callable):
    def take_primitives(indices):
        p = tree_map(lambda x: jnp.take(x, indices, axis=0), primitives)
        c = jnp.take(coefficients, indices)
        return p, c

    primitives, coefficients, orbital_index = batch_orbitals(basis.orbitals)
    ii, jj = jnp.meshgrid(*[jnp.arange(basis.num_primitives)] * 2, indexing="ij")
    lhs, cl = take_primitives(ii.reshape(-1))
    rhs, cr = take_primitives(jj.reshape(-1))
    out = vmap(primitive_op)(lhs, rhs)

    out = cl * cr * out.T
    out = out.reshape(3, basis.num_primitives, basis.num_primitives)
    out = segment_sum(jnp.rollaxis(out, 1), orbital_index)
    out = segment_sum(jnp.rollaxis(out, -1), orbital_index)
    return jnp.rollaxis(out, -1)


def grad_overlap_primitives(a: Primitive, b: Primitive):  # scaffolding: an s-type overlap gradient in place of _overlap_primitives
    p = a.alpha + b.alpha
    d = a.center - b.center
    return -2 * a.alpha * b.alpha / p * d * (jnp.pi / p) ** 1.5 * jnp.exp(-a.alpha * b.alpha / p * jnp.sum(d**2))


def grad_overlap_basis(basis: Basis):
    return grad_integrate(basis, grad_overlap_primitives)


# scaffolding: a two-atom basis (two orbitals of three primitives), gradient of the overlap jitted for two geometries
def make_basis(dz):
    def orbital(center):
        prims = tuple(Primitive(center=jnp.asarray(center), alpha=jnp.asarray(a)) for a in (0.2, 1.0, 5.0))
        return Orbital(primitives=prims, coefficients=jnp.array([0.15, 0.5, 0.6]))
    return Basis(orbitals=(orbital([0.0, 0.0, 0.0]), orbital([0.0, 0.0, dz])))


calls = 0
try:  # scaffolding
    for dz in (1.4, 1.5):
        grad = jax.jit(grad_overlap_basis)(make_basis(dz))
        calls += 1
    _report({"jit(grad_overlap_basis)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
