# source: https://github.com/adtzlr/felupe/issues/868
# expect: none
# runtime: COMPILES 2 CALLS 30
# why: the material builds its two jitted vmapped derivative functions once in __init__ and the solver calls them with fixed-shape F, so each compiles once (both are named jit(W))
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


# cell 1 (felupe setup cut: felupe is not installed; mesh/region/field/boundaries replaced by scaffolding below)
# import felupe as fem
# mesh = fem.Cube(n=11)
# region = fem.RegionHexahedron(mesh)
# field = fem.FieldContainer([fem.Field(region, dim=3)])
# boundaries, loadcase = fem.dof.uniaxial(field, clamped=True)

import jax
import jax.numpy as jnp


def W(F):
    C = F.T @ F
    I1 = jnp.trace(C)
    J = jnp.linalg.det(F)
    return 1 / 2 * (J ** (-2 / 3) * I1 - 3) + 2 * (J - 1) ** 2 / 2


class MyMaterialModel:
    def __init__(self, W):
        self.W = W
        self.dWdF = jax.jit(self.vmap(self.vmap(jax.grad(self.W))))
        self.d2WdFdF = jax.jit(self.vmap(self.vmap(jax.jacobian(jax.grad(self.W)))))

    def vmap(self, fun, in_axes=-1, out_axes=-1, **kwargs):
        return jax.vmap(fun, in_axes=in_axes, out_axes=out_axes, **kwargs)

    def gradient(self, x):
        F, statevars = x[0], x[-1]
        return [self.dWdF(F), statevars]

    def hessian(self, x):
        F = x[0]
        return [self.d2WdFdF(F)]


umat = MyMaterialModel(W)
# solid = fem.SolidBody(umat=umat, field=field)   (felupe cut)
# move = fem.math.linsteps([0, 1], num=5)         (felupe cut)


# scaffolding: what felupe's Job/Step does with the umat -- Newton iterations over a 5-step
# uniaxial ramp, each evaluating gradient and hessian at the deformation gradient of every
# quadrature point (8 points x 8 hexahedra, fixed shape (3, 3, 8, 8))
import numpy as np  # scaffolding
calls = 0  # scaffolding
statevars = np.zeros((0, 8, 8))  # scaffolding
for move in np.linspace(0, 1, 6)[1:]:  # scaffolding
    for newton_iteration in range(3):  # scaffolding
        stretch = 1.0 + 0.1 * move / (newton_iteration + 1)  # scaffolding
        F = np.tile(np.diag([stretch, 1 / np.sqrt(stretch), 1 / np.sqrt(stretch)])[:, :, None, None], (1, 1, 8, 8))  # scaffolding
        P, statevars = umat.gradient([F, statevars])  # scaffolding
        (A,) = umat.hessian([F, statevars])  # scaffolding
        calls += 2  # scaffolding
_report({"jit(W)"}, calls)  # scaffolding
