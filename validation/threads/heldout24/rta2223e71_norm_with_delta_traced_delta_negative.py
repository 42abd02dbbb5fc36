# source: https://github.com/act3-ace/run-time-assurance/commit/2223e717bb90d7bfebe8fd00d327cee53b93a40a
# expect: none
# runtime: COMPILES 2 CALLS 18
# why: norm_with_delta is jitted with the float delta traced (the commit later made it static), which is fine: delta is only used arithmetically, and the constraint's jitted _compute and jit(grad(_compute)) each compile once for 18 calls.

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


import abc
import numbers

import jax.numpy as jnp
import numpy as np
from jax import grad, jit


# --- run_time_assurance/utils.py (before the commit) ---
@jit
def norm_with_delta(x: jnp.ndarray, delta: float):
    """
    Computes the norm of the vector with a small positive delta factor added inside the square root.
    Allows norm function to be differentiable at x = 0
    """
    return jnp.sqrt(jnp.sum(jnp.square(x)) + delta)


# --- run_time_assurance/constraint.py (docstrings cut) ---
class ConstraintModule(abc.ABC):
    """Base class implementation for safety constraints"""

    def __init__(self, alpha: 'ConstraintStrengthener' = None):
        assert isinstance(alpha, ConstraintStrengthener), "alpha must be an instance/sub-class of ConstraintStrenthener"
        self._alpha = alpha
        self._compose()

    def _compose(self):
        self._compute_fn = jit(self._compute)
        self._grad_fn = jit(grad(self._compute))

    def __call__(self, state: jnp.ndarray) -> float:
        return self._compute_fn(state)

    @abc.abstractmethod
    def _compute(self, state: jnp.ndarray) -> float:
        raise NotImplementedError()

    def grad(self, state: jnp.ndarray) -> jnp.ndarray:
        return self._grad_fn(state)

    def alpha(self, x: float) -> float:
        if self._alpha is None:
            return None
        return self._alpha(x)


class ConstraintStrengthener(abc.ABC):
    """Strengthing function used to soften Nagumo's condition outside of constraint set boundary"""

    @abc.abstractmethod
    def __call__(self, x) -> float:
        raise NotImplementedError


class PolynomialConstraintStrengthener(ConstraintStrengthener):
    """Implements strengthing function as polynomial function of x"""

    def __init__(self, coefs: list = None):
        assert isinstance(coefs, list) or coefs is None, "coefs must be a list of numbers"

        assert coefs is None or all((isinstance(i, numbers.Number) for i in coefs)), "coefs must be a list of numbers"

        if coefs is None:
            coefs = [0, 1]

        self.coefs = coefs

    def __call__(self, x: float) -> float:
        output = 0
        for n, c in enumerate(self.coefs):
            output += c * x**n
        return output


# --- run_time_assurance/zoo/cwh/docking_2d.py ---
class ConstraintDocking2dRelativeVelocity(ConstraintModule):
    """CWH NMT velocity constraint"""

    def __init__(self, v0: float, v1: float, delta: float = 1e-5, alpha: ConstraintStrengthener = None):
        self.v0 = v0
        self.v1 = v1
        self.delta = delta

        if alpha is None:
            alpha = PolynomialConstraintStrengthener([0, 0.05, 0, 0.1])
        super().__init__(alpha=alpha)

    def _compute(self, state: jnp.ndarray) -> float:
        return self.v0 + self.v1 * norm_with_delta(state[0:2], self.delta) - norm_with_delta(state[2:4], self.delta)


# --- driver: evaluate the constraint, its gradient and strengthening along a trajectory --- scaffolding
c = ConstraintDocking2dRelativeVelocity(v0=0.2, v1=2 * 0.001027)  # scaffolding: docking_2d defaults
rng = np.random.default_rng(0)  # scaffolding
for _ in range(6):  # scaffolding
    s = jnp.asarray(rng.normal(size=4) * np.array([100.0, 100.0, 0.1, 0.1]), jnp.float32)  # scaffolding
    h, g, a = c(s), c.grad(s), c.alpha(c(s))  # scaffolding
print(float(h), np.asarray(g).round(4), float(a))  # scaffolding
_report({"jit(_compute)"}, 18)  # scaffolding: 12 calls of _compute_fn, 6 of _grad_fn (both named _compute)
