# source: https://github.com/lanl/scico/commit/34ddcd66b24253f7dd76184bf46c00ec71c82c53
# expect: trace-time-error at line 75
# runtime: ERROR TypeError
# why: DualTVLoss.__call__ and IsoProjector.prox are decorated with @jax.jit, so self (a plain Loss/Functional object, not a pytree) becomes a traced argument and the first evaluation raises TypeError.

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


from typing import Callable, Optional, Union

import jax
import jax.numpy as jnp

JaxArray = BlockArray = jax.Array  # scaffolding: scico.typing / scico.numpy


def ensure_on_device(y):  # scaffolding: scico.numpy.util
    return jnp.asarray(y)


class functional:  # scaffolding: the parts of scico.functional used here
    class Functional:
        has_eval = False
        has_prox = False

    class SquaredL2Norm:
        def __call__(self, x):
            return jnp.sum(jnp.abs(x) ** 2)


class loss:  # scaffolding: scico.loss.Loss, reduced
    class Loss(functional.Functional):
        has_eval = True

        def __init__(self, y, A=None, scale=0.5):
            self.y, self.A, self.scale = y, A, scale


class operator:  # scaffolding
    Operator = object


# examples/scripts/denoise_tv_iso_pgm.py
class DualTVLoss(loss.Loss):
    def __init__(
        self,
        y: Union[JaxArray, BlockArray],
        A: Optional[Union[Callable, operator.Operator]] = None,
        lmbda: float = 0.5,
    ):
        y = ensure_on_device(y)
        self.functional = functional.SquaredL2Norm()
        super().__init__(y=y, A=A, scale=1.0)
        self.lmbda = lmbda

    @jax.jit
    def __call__(self, x: Union[JaxArray, BlockArray]) -> float:

        xint = self.y - self.lmbda * self.A(x)
        return -1.0 * self.functional(xint - jnp.clip(xint, 0.0, 1.0)) + self.functional(xint)

# Evaluation of functional set to zero.
class IsoProjector(functional.Functional):

    has_eval = True
    has_prox = True

    def __call__(self, x: Union[JaxArray, BlockArray]) -> float:
        return 0.0

    @jax.jit
    def prox(self, v: JaxArray, lam: float, **kwargs) -> JaxArray:
        norm_v_ptp = jnp.sqrt(jnp.sum(jnp.abs(v) ** 2, axis=0))

        x_out = v / jnp.maximum(jnp.ones(v.shape), norm_v_ptp)
        out1 = v[0, :, -1] / jnp.maximum(jnp.ones(v[0, :, -1].shape), jnp.abs(v[0, :, -1]))
        x_out = x_out.at[0, :, -1].set(out1)
        out2 = v[1, -1, :] / jnp.maximum(jnp.ones(v[1, -1, :].shape), jnp.abs(v[1, -1, :]))
        x_out = x_out.at[1, -1, :].set(out2)

        return x_out

def A(x):  # scaffolding: stand-in for linop.FiniteDifference(...).adj (a backward-difference divergence)
    return -(x[0] - jnp.roll(x[0], 1, axis=0)) - (x[1] - jnp.roll(x[1], 1, axis=1))


y = jax.random.uniform(jax.random.PRNGKey(0), (32, 32))  # scaffolding: a noisy 32x32 image
reg_weight_iso = 1.4e0
f_iso = DualTVLoss(y=y, A=A, lmbda=reg_weight_iso)
g_iso = IsoProjector()
x = jnp.zeros((2, 32, 32))
L = 16.0 * f_iso.lmbda**2
calls = 0
try:  # scaffolding: the PGM iterations that AcceleratedPGM would run, 5 steps
    for _ in range(5):
        x = g_iso.prox(x - 1.0 / L * jax.grad(f_iso)(x), 1.0 / L)
        calls += 1
    _report({"jit(__call__)", "jit(prox)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
