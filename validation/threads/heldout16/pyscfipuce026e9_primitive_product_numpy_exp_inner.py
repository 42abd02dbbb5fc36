# source: https://github.com/graphcore-research/pyscf-ipu/commit/ce026e9047cddc5e53e49c15b9514ae34707f60d
# expect: trace-time-error at line 75
# runtime: ERROR TracerArrayConversionError
# why: product computes the Gaussian prefactor with numpy's np.inner and np.exp, so under jit numpy tries to convert the traced centres to an array and raises TracerArrayConversionError.

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


from typing import Optional

import dataclasses  # scaffolding

import chex
import jax.numpy as jnp
import numpy as np
from scipy.special import gammaln

import jax  # scaffolding

Float3 = FloatN = FloatNx3 = Int3 = jnp.ndarray  # scaffolding: pyscf_ipu.experimental.types


# pyscf_ipu/experimental/primitive.py (before the commit)
@chex.dataclass
class Primitive:
    center: Float3 = dataclasses.field(default_factory=lambda: np.zeros(3, dtype=np.float32))  # scaffolding: default_factory (Python 3.11 rejects array defaults)
    alpha: float = 1.0
    lmn: Int3 = dataclasses.field(default_factory=lambda: np.zeros(3, dtype=np.int32))  # scaffolding: default_factory
    norm: Optional[float] = None

    def __post_init__(self):
        if self.norm is None:
            self.norm = normalize(self.lmn, self.alpha)

    @property
    def angular_momentum(self) -> int:
        return np.sum(self.lmn)

    def __call__(self, pos: FloatNx3) -> FloatN:
        return eval_primitive(self, pos)


def normalize(lmn: Int3, alpha: float) -> float:
    L = np.sum(lmn)
    N = ((1 / 2) / alpha) ** (L + 3 / 2)
    N *= np.exp(np.sum(gammaln(lmn + 1 / 2)))
    return N**-0.5


def product(a: Primitive, b: Primitive) -> Primitive:
    alpha = a.alpha + b.alpha
    center = (a.alpha * a.center + b.alpha * b.center) / alpha
    lmn = a.lmn + b.lmn
    c = a.norm * b.norm
    Rab = a.center - b.center
    c *= np.exp(-a.alpha * b.alpha / alpha * np.inner(Rab, Rab))
    return Primitive(center=center, alpha=alpha, lmn=lmn, norm=c)


def eval_primitive(p: Primitive, pos: FloatNx3) -> FloatN:
    assert pos.shape[-1] == 3, "pos must be have shape [N,3]"
    pos_translated = pos[:, jnp.newaxis] - p.center
    v = p.norm * jnp.exp(-p.alpha * jnp.sum(pos_translated**2, axis=-1))
    v *= jnp.prod(pos_translated**p.lmn, axis=-1)
    return v


# scaffolding: the Gaussian product of two s primitives inside a jitted integral, for two bond lengths
calls = 0
try:  # scaffolding
    for dz in (1.4, 1.5):
        a = Primitive(center=jnp.array([0.0, 0.0, 0.0]), alpha=0.5)
        b = Primitive(center=jnp.array([0.0, 0.0, dz]), alpha=1.2)
        p = jax.jit(product)(a, b)
        calls += 1
    _report({"jit(product)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
