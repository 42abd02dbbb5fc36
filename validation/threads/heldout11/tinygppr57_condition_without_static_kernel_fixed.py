# source: https://github.com/dfm/tinygp/pull/57
# expect: none
# runtime: COMPILES 0 CALLS 2
# why: the PR drops the jit with a static kernel from QuasisepSolver.condition, so conditioning runs (eagerly, or inside the caller's own jit) without hashing the array-holding kernel.

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
from functools import partial
from typing import Optional
import dataclasses
from typing import Any, Callable, Tuple, TypeVar, Union

import jax
import jax.numpy as jnp
import numpy as np

JAXArray = Union[np.ndarray, jnp.ndarray]

_T = TypeVar("_T")


def dataclass(clz: _T) -> _T:
    # workaround for pytype not recognizing __dataclass_fields__
    data_clz: Any = dataclasses.dataclass(frozen=True)(clz)
    meta_fields = []
    data_fields = []
    for name, field_info in data_clz.__dataclass_fields__.items():
        is_pytree_node = field_info.metadata.get("pytree_node", True)
        if is_pytree_node:
            data_fields.append(name)
        else:
            meta_fields.append(name)

    def replace(self, **updates):
        return dataclasses.replace(self, **updates)

    data_clz.replace = replace

    def iterate_clz(x):
        meta = tuple(getattr(x, name) for name in meta_fields)
        data = tuple(getattr(x, name) for name in data_fields)
        return data, meta

    def clz_from_iterable(meta, data):
        meta_args = tuple(zip(meta_fields, meta))
        data_args = tuple(zip(data_fields, data))
        kwargs = dict(meta_args + data_args)
        return data_clz(**kwargs)

    jax.tree_util.register_pytree_node(
        data_clz, iterate_clz, clz_from_iterable
    )

    # Hack to make this class act as a tuple when unpacked
    data_clz.iter_elems = lambda self: iterate_clz(self)[0].__iter__()

    return data_clz


def field(pytree_node: bool = True, **kwargs: Any) -> Any:
    return dataclasses.field(metadata={"pytree_node": pytree_node}, **kwargs)



class Quasisep:  # scaffolding: tinygp.kernels.quasisep.Quasisep
    pass  # scaffolding


Kernel = Quasisep  # scaffolding: tinygp.kernels.base.Kernel


@dataclass
class Matern32(Quasisep):  # scaffolding: dense stand-in for the quasiseparable Matern-3/2 kernel
    scale: JAXArray  # scaffolding
    sigma: JAXArray = field(default_factory=lambda: jnp.ones(()))  # scaffolding

    def __call__(self, X1, X2):  # scaffolding
        r = jnp.abs(X1[:, None] - X2[None, :]) / self.scale  # scaffolding
        f = np.sqrt(3.0) * r  # scaffolding
        return self.sigma**2 * (1.0 + f) * jnp.exp(-f)  # scaffolding


@dataclass
class DenseFactor:  # scaffolding: stands in for the LowerTriQSM factor
    L: JAXArray  # scaffolding

    def solve(self, y):  # scaffolding
        return jax.scipy.linalg.solve_triangular(self.L, y, lower=True)  # scaffolding


@dataclass
class QuasisepSolver:
    X: JAXArray
    factor: DenseFactor  # scaffolding: matrix/factor were SymmQSM/LowerTriQSM

    @classmethod
    def init(cls, kernel, X, diag):  # scaffolding: dense Cholesky instead of QSM
        K = kernel(X, X) + diag * jnp.eye(X.shape[0])  # scaffolding
        return cls(X=X, factor=DenseFactor(jnp.linalg.cholesky(K)))  # scaffolding

    def solve_triangular(
        self, y: JAXArray, *, transpose: bool = False
    ) -> JAXArray:
        if transpose:
            return self.factor.transpose().solve(y)
        else:
            return self.factor.solve(y)

    def dot_triangular(self, y: JAXArray) -> JAXArray:
        return self.factor @ y

    def condition(
        self,
        kernel: Kernel,
        X_test: Optional[JAXArray],
        diag: Optional[JAXArray],
    ) -> Any:
        """Compute the covariance matrix for a conditional GP

        In the case where the prediction is made at the input coordinates with a
        :class:`tinygp.kernels.quasisep.Quasisep` kernel, this will return the
        quasiseparable representation of the conditional matrix. Otherwise, it
        will use scalable methods where possible, but return a dense
        representation of the covariance, so be careful when predicting at a
        large number of test points!

        Args:
            kernel: The kernel for the covariance between the observed and
                predicted data.
            X_test: The coordinates of the predicted points. Defaults to the
                input coordinates.
            diag: Any extra variance to add to the diagonal of the predicted
                model.
        """

        # We can easily compute the conditional as a QSM in the special case
        # where we are predicting at the input coordinates and a Quasisep kernel
        if X_test is None and isinstance(kernel, Quasisep):
            M = kernel.to_symm_qsm(self.X)
            delta = (self.factor.inv() @ M).gram()
            if diag is not None:
                M += DiagQSM(d=jnp.broadcast_to(diag, M.diag.d.shape))
            return M - delta

        # Otherwise fall back on the slow method for now :(
        if X_test is None:
            Kss = Ks = kernel(self.X, self.X)
        else:
            Kss = kernel(X_test, X_test)
            Ks = kernel(self.X, X_test)

        A = self.solve_triangular(Ks)
        return Kss - A.transpose() @ A


X = jnp.linspace(0.0, 10.0, 20)  # scaffolding
kernel = Matern32(scale=jnp.array(1.5))  # scaffolding
solver = QuasisepSolver.init(kernel, X, diag=jnp.array(0.1))  # scaffolding
X_test = jnp.linspace(0.5, 9.5, 7)  # scaffolding
try:  # scaffolding
    for _ in range(2):  # scaffolding
        print(solver.condition(kernel, X_test, None).shape)  # scaffolding
    _report({"jit(condition)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
