# source: https://github.com/jswu18/distribution-discrepancies/pull/7
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: PR #7 jits methods of classes registered as pytrees (dict aux_data), passes a bound method as a static argument and indexes with a NumPy boolean mask under jit; all of it is concrete at trace time, so compute compiles once for 4 calls.
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
from abc import ABC, abstractmethod
from functools import partial
from typing import Any, Callable, Dict, Tuple

import jax.numpy as jnp
import numpy as np
from jax import jacfwd, jit, tree_util, vmap


# kernels.py at 617b691 (PR #7; docstrings cut)
class BaseKernel(ABC):
    @abstractmethod
    def k(self, x: np.ndarray, y: np.ndarray) -> float:
        raise NotImplemented


class BaseAutoDiffKernel(BaseKernel, ABC):
    def dk_dx(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return jacfwd(self.k, argnums=0)(x, y)

    def dk_dy(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return jacfwd(self.k, argnums=1)(x, y)

    def dk_dx_dy(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return jnp.squeeze(jacfwd(jacfwd(self.k, argnums=0), argnums=1)(x, y))

    @abstractmethod
    def tree_flatten(self) -> Tuple[Tuple, Dict[str, Any]]:
        raise NotImplemented

    @classmethod
    @abstractmethod
    def tree_unflatten(
        cls, aux_data: Dict[str, Any], children: Tuple
    ) -> "BaseAutoDiffKernel":
        raise NotImplemented


@jit
def _l2_squared(x: np.ndarray, y: np.ndarray) -> float:
    xx = jnp.dot(x.T, x)
    xy = jnp.dot(x.T, y)
    yy = jnp.dot(y.T, y)
    return (xx - 2 * xy + yy).reshape()


class GaussianKernel(BaseAutoDiffKernel):
    def __init__(self, sigma: float):
        self.sigma = sigma

    @jit
    def k(self, x: np.ndarray, y: np.ndarray) -> float:
        return jnp.exp(-self.sigma * _l2_squared(x, y))

    def tree_flatten(self) -> Tuple[Tuple, Dict[str, Any]]:
        children = ()
        aux_data = {"sigma": self.sigma}
        return children, aux_data

    @classmethod
    def tree_unflatten(
        cls, aux_data: Dict[str, Any], children: Tuple
    ) -> "GaussianKernel":
        return cls(*children, **aux_data)


for KernelClass in [GaussianKernel]:
    tree_util.register_pytree_node(
        KernelClass,
        KernelClass.tree_flatten,
        KernelClass.tree_unflatten,
    )


# discrepancies.py at 617b691 (docstrings cut)
@partial(jit, static_argnames=["kernel"])
def _gram(
    kernel: Callable[[np.ndarray, np.ndarray], np.ndarray], x: np.ndarray, y: np.ndarray
) -> np.ndarray:
    return vmap(
        lambda x_i: vmap(lambda y_i: kernel(x_i, y_i))(y),
    )(x)


@jit
def _remove_diagonal(x: np.ndarray) -> np.ndarray:
    return x[~np.eye(x.shape[0], dtype=bool)].reshape(x.shape[0], -1)


class MaximumMeanDiscrepancy:
    def __init__(self, kernel: BaseKernel):
        self.kernel = kernel

    @jit
    def compute(self, x: np.ndarray, y: np.ndarray) -> float:
        xx = _gram(self.kernel.k, x, x)
        xy = _gram(self.kernel.k, x, y)
        yy = _gram(self.kernel.k, y, y)
        return (
            jnp.mean(_remove_diagonal(xx))
            + jnp.mean(_remove_diagonal(yy))
            - 2 * jnp.mean(xy)
        )

    def tree_flatten(self) -> Tuple[Tuple, Dict[str, Any]]:
        children = ()
        aux_data = {"kernel": self.kernel}
        return children, aux_data

    @classmethod
    def tree_unflatten(
        cls, aux_data: Dict[str, Any], children: Tuple
    ) -> "MaximumMeanDiscrepancy":
        return cls(*children, **aux_data)


for DivergenceClass in [
    MaximumMeanDiscrepancy,
]:

    tree_util.register_pytree_node(
        DivergenceClass,
        DivergenceClass.tree_flatten,
        DivergenceClass.tree_unflatten,
    )


# scaffolding: the notebook's use, MMD between two samples, evaluated for 4 sample pairs
rng = np.random.RandomState(0)  # scaffolding
mmd = MaximumMeanDiscrepancy(kernel=GaussianKernel(sigma=1.0))  # scaffolding
calls = 0  # scaffolding
for _ in range(4):  # scaffolding
    x, y = rng.randn(20, 2), rng.randn(20, 2) + 0.5  # scaffolding
    print(float(mmd.compute(x, y)))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(compute)"}, calls)  # scaffolding
