# source: https://github.com/vasilvas99/JaxFEM/blob/e2ac2f5e19819001612ab9747b7093393a05afe3/FEMcommon/local_matrices.py
# expect: none
# runtime: COMPILES 2 CALLS 200
# why: local_mass and local_stiffness are rebound to jax.jit(...) once at module level and test() calls them element by element in a Python loop over same-shaped (3, 2) triangles, so each compiles once.

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
# FEMcommon/local_matrices.py of vasilvas99/JaxFEM at e2ac2f5 (advection and vector parts cut)
from random import random

import jax
import jax.numpy as jnp


def s1(p):
    return 1 - p[0] - p[1]


def s2(p):
    return p[0]


def s3(p):
    return p[1]


shapes = [s1, s2, s3]
grad_shapes = [jax.grad(shape) for shape in shapes]


def isoparametric_coord(verts, p, i):
    f_eval = jnp.array(list(map(lambda f: f(p), shapes)))
    return verts[:, i].dot(f_eval)


def real_coords(verts, p):
    real_coords = [isoparametric_coord(verts, p, i) for i in range(len(p))]
    return jnp.array(real_coords)


real_coords_jac = jax.jacfwd(real_coords, argnums=1)


def triangle_quadrature(verts, integrand):
    quadrature_weights = jnp.array([1 / 6, 1 / 6, 1 / 6])
    quadrature_nodes = jnp.array([[1 / 2, 0], [1 / 2, 1 / 2], [0, 1 / 2]])

    vals_at_nodes = jax.vmap(lambda node: integrand(verts, node))(quadrature_nodes)
    return quadrature_weights * vals_at_nodes.sum(0)


def local_mass_integrand(verts, p):
    f_eval = jnp.array(list(map(lambda f: f(p), shapes)))
    return jnp.outer(f_eval.T, f_eval) * jnp.linalg.det(real_coords_jac(verts, p))


def local_mass(verts):
    lmi = local_mass_integrand
    return triangle_quadrature(verts, lmi)


def local_stiffness_integrand(verts, p):
    grad_shape_eval = jnp.array(list(map(lambda f: f(p), grad_shapes)))
    jac = real_coords_jac(verts, p)
    jac_inv = jnp.linalg.inv(jac)
    return (grad_shape_eval @ jac_inv @ jac_inv.T @ grad_shape_eval.T) * jnp.linalg.det(
        jac
    )


def local_stiffness(verts):
    lsi = local_stiffness_integrand
    return triangle_quadrature(verts, lsi)


local_mass = jax.jit(local_mass)
local_stiffness = jax.jit(local_stiffness)


def test(n):
    from time import monotonic

    data = jnp.array(
        [
            [[random(), random()], [random(), random()], [random(), random()]]
            for x in range(n)
        ]
    )
    print("Starting execution")
    t = monotonic()
    for d in data:
        local_mass(d)
        local_stiffness(d)
    return monotonic() - t


n = 100  # scaffolding
test(n)  # scaffolding
_report({"jit(local_mass)", "jit(local_stiffness)"}, 2 * n)  # scaffolding
