# source: https://github.com/lanl/scico/commit/e17ce599b14db0216fb9c99223007677a6b80434
# expect: trace-time-error at line 109
# runtime: ERROR TypeError
# why: @jax.jit on the method x_step makes self (a PGM object, not a pytree) a traced argument, so the first solver step raises TypeError when jit cannot interpret it as an array.

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
from typing import Optional, Union

import jax
import jax.numpy as jnp

snp = jnp  # scaffolding: scico.numpy
Array = BlockArray = jax.Array  # scaffolding


class Functional:  # scaffolding: minimal scico.functional.Functional
    has_eval = True
    has_prox = False


class SquaredL2Loss(Functional):  # scaffolding: f(x) = 1/2 ||A x - y||^2
    def __init__(self, y, A):
        self.y, self.A = y, A

    def __call__(self, x):
        return 0.5 * snp.sum((self.A @ x - self.y) ** 2)

    def grad(self, x):
        return self.A.T @ (self.A @ x - self.y)


class L1Norm(Functional):  # scaffolding: g(x) = lam ||x||_1
    has_prox = True

    def __init__(self, lam):
        self.lam = lam

    def prox(self, v, lam):
        return snp.sign(v) * snp.maximum(snp.abs(v) - lam * self.lam, 0.0)


class PGMStepSize:  # scaffolding: constant step size
    def internal_init(self, pgm):
        self.pgm = pgm

    def update(self, v):
        return self.pgm.L


class Optimizer:  # scaffolding: scico.optimize.Optimizer.solve, reduced
    def __init__(self, maxiter=10, **kwargs):
        self.maxiter = maxiter

    def solve(self):
        for self.itnum in range(self.maxiter):
            self.step()
        return self.x


# scico/optimize/_pgm.py (PGM, cut down to __init__, x_step and step)
class PGM(Optimizer):
    def __init__(
        self,
        f,
        g: Functional,
        L0: float,
        x0: Union[Array, BlockArray],
        step_size: Optional[PGMStepSize] = None,
        **kwargs,
    ):
        #: Functional or Loss to minimize; must have grad method defined.
        self.f = f
        if g.has_prox is not True:
            raise ValueError(f"The functional g ({type(g)}) must have a prox method.")
        #: Functional to minimize; must have prox defined
        self.g: Functional = g
        if step_size is None:
            step_size = PGMStepSize()
        self.step_size: PGMStepSize = step_size
        self.step_size.internal_init(self)
        self.L: float = L0  # reciprocal of step size (estimate of Lipschitz constant of f)
        self.fixed_point_residual = snp.inf
        self.x: Union[Array, BlockArray] = x0  # current estimate of solution

        super().__init__(**kwargs)

    @jax.jit
    def x_step(self, v: Union[Array, BlockArray], L: float) -> Union[Array, BlockArray]:
        """Compute update for variable `x`."""
        return self.g.prox(v - 1.0 / L * self.f.grad(v), 1.0 / L)

    def step(self):
        """Take a single PGM step."""
        # Update reciprocal of step size using current solution.
        self.L = self.step_size.update(self.x)
        x = self.x_step(self.x, self.L)
        self.fixed_point_residual = snp.linalg.norm(self.x - x)
        self.x = x


A = jax.random.normal(jax.random.PRNGKey(0), (20, 10))  # scaffolding: a small lasso problem
y = A @ jnp.zeros(10).at[:3].set(1.0)
f = SquaredL2Loss(y=y, A=A)
g = L1Norm(0.1)
L0 = 1.05 * float(jnp.linalg.norm(A, 2) ** 2)
solver = PGM(f=f, g=g, L0=L0, x0=jnp.zeros(10), maxiter=5)
try:  # scaffolding
    x = solver.solve()
    _report({"jit(x_step)", "jit(_x_step)"}, solver.itnum + 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
