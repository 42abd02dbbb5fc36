# source: https://github.com/CMBSciPol/furax/commit/0746391570f12b18dff01b08c8edeb68b7b6f9b0
# expect: unhashable-static at line 525
# runtime: ERROR TypeError
# why: the test jits the operator object itself (jit(func)); jit hashes the equinox module, whose band_values is a JAX array (declared a static field), so it raises TypeError: unhashable type ArrayImpl.
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



import warnings  # scaffolding
warnings.simplefilter("ignore")  # scaffolding: equinox warns that a JAX array is set as static
import jax  # scaffolding
jax.config.update("jax_enable_x64", True)  # scaffolding: the test suite runs in float64
from jax import jit  # test_toeplitz.py's import
from numpy.testing import assert_allclose  # test_toeplitz.py's import

# ---- furax/_base/core.py (AbstractLinearOperator, the lineax tag helpers, symmetric, square; the other operator classes are cut) ----
# mypy: disable-error-code=method-assign
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, TypeVar

import equinox
import jax
import jax.numpy as jnp
import lineax as lx
from jax import Array
from jaxtyping import Float, Inexact, PyTree, Scalar, ScalarLike

# from furax._base.config import Config, ConfigState  # scaffolding: Config is not used by the code below


class AbstractLinearOperator(lx.AbstractLinearOperator, ABC):  # type: ignore[misc]

    def __init_subclass__(cls, **keywords: Any) -> None:
        _monkey_patch_operator(cls)

    def __call__(self, x: PyTree[jax.ShapeDtypeStruct]) -> PyTree[jax.ShapeDtypeStruct]:
        if isinstance(x, lx.AbstractLinearOperator):
            raise ValueError("Use '@' to compose operators")
        return self.mv(x)

    def __matmul__(self, other: Any) -> 'AbstractLinearOperator':
        if not isinstance(other, lx.AbstractLinearOperator):
            return NotImplemented
        if self.in_structure() != other.out_structure():
            raise ValueError('Incompatible linear operator structures')
        if isinstance(other, CompositionOperator):
            return NotImplemented
        if isinstance(other, AbstractLazyInverseOperator):
            if other.operator is self:
                return IdentityOperator(self.in_structure())

        return CompositionOperator([self, other])

    def __add__(self, other: Any) -> 'AbstractLinearOperator':
        if not isinstance(other, lx.AbstractLinearOperator):
            return NotImplemented
        if self.in_structure() != other.in_structure():
            raise ValueError('Incompatible linear operator input structures')
        if self.out_structure() != other.out_structure():
            raise ValueError('Incompatible linear operator output structures')
        if isinstance(other, AdditionOperator):
            return NotImplemented

        return AdditionOperator([self, other])

    def __sub__(self, other: Any) -> 'AbstractLinearOperator':
        if not isinstance(other, lx.AbstractLinearOperator):
            return NotImplemented
        if self.in_structure() != other.in_structure():
            raise ValueError('Incompatible linear operator input structures')
        if self.out_structure() != other.out_structure():
            raise ValueError('Incompatible linear operator output structures')

        result: AbstractLinearOperator = self + (-other)
        return result

    def __mul__(self, other: ScalarLike) -> 'AbstractLinearOperator':
        return other * self

    # Mypy type ignore: Forward operator "__mul__" is not callable
    # https://github.com/python/mypy/issues/11595
    def __rmul__(self, other: ScalarLike) -> 'AbstractLinearOperator':  # type: ignore[misc]
        other = jnp.asarray(other)
        if other.shape != ():
            raise ValueError('Can only multiply AbstractLinearOperators by scalars.')
        return HomothetyOperator(other, self.out_structure()) @ self

    def __truediv__(self, other: ScalarLike) -> 'AbstractLinearOperator':
        other = jnp.asarray(other)
        if other.shape != ():
            raise ValueError('Can only divide AbstractLinearOperators by scalars.')
        return HomothetyOperator(1 / other, self.out_structure()) @ self

    def __pos__(self) -> 'AbstractLinearOperator':
        return self

    def __neg__(self) -> 'AbstractLinearOperator':
        return (-1) * self

    @abstractmethod
    def mv(self, x: PyTree[Inexact[Array, ' _a']]) -> PyTree[Inexact[Array, ' _b']]: ...

    def reduce(self) -> 'AbstractLinearOperator':
        """Returns a linear operator with a reduced structure."""
        return self

    def as_matrix(self) -> Inexact[Array, 'a b']:
        """Returns the operator as a dense matrix.

        Input and output PyTrees are flattened and concatenated.
        """
        in_struct = self.in_structure()
        in_pytree = jax.tree.map(lambda s: jnp.zeros(s.shape, s.dtype), in_struct)
        in_leaves_ref, in_treedef = jax.tree.flatten(in_pytree)

        matrix = jnp.empty((self.out_size(), self.in_size()), dtype=self.out_promoted_dtype)
        jcounter = 0

        for ileaf, leaf in enumerate(in_leaves_ref):

            def body(index, carry):  # type: ignore[no-untyped-def]
                matrix, jcounter = carry
                zeros = in_leaves_ref.copy()
                zeros[ileaf] = leaf.ravel().at[index].set(1).reshape(leaf.shape)
                in_pytree = jax.tree.unflatten(in_treedef, zeros)
                out_pytree = self.mv(in_pytree)
                out_leaves = [leaf.ravel() for leaf in jax.tree.leaves(out_pytree)]
                matrix = matrix.at[:, jcounter].set(jnp.concatenate(out_leaves))
                jcounter += 1
                return matrix, jcounter

            matrix, jcounter = jax.lax.fori_loop(0, leaf.size, body, (matrix, jcounter))

        return matrix

    def transpose(self) -> 'AbstractLinearOperator':
        return TransposeOperator(self)

    @property
    def T(self) -> 'AbstractLinearOperator':
        return self.transpose()

    def inverse(self) -> 'AbstractLinearOperator':
        return InverseOperator(self)

    @property
    def I(self) -> 'AbstractLinearOperator':
        return self.inverse()

    def out_structure(self) -> PyTree[jax.ShapeDtypeStruct]:
        return jax.eval_shape(self.mv, self.in_structure())

    def in_size(self) -> int:
        """The number of elements in the input PyTree."""
        return sum(_.size for _ in jax.tree.leaves(self.in_structure()))

    def out_size(self) -> int:
        """The number of elements in the output PyTree."""
        return sum(_.size for _ in jax.tree.leaves(self.out_structure()))

    @property
    def in_promoted_dtype(self) -> jnp.dtype:  # type: ignore[type-arg]
        """Returns the promoted data type of the operator's input leaves."""
        leaves = jax.tree.leaves(self.in_structure())
        return jnp.result_type(*leaves)

    @property
    def out_promoted_dtype(self) -> jnp.dtype:  # type: ignore[type-arg]
        """Returns the promoted data type of the operator's output leaves."""
        leaves = jax.tree.leaves(self.out_structure())
        return jnp.result_type(*leaves)


def _monkey_patch_operator(cls: type[lx.AbstractLinearOperator]) -> None:
    """Default tags for the operators"""
    for tag in [
        lx.is_diagonal,
        lx.is_lower_triangular,
        lx.is_upper_triangular,
        lx.is_tridiagonal,
        lx.is_symmetric,
        lx.is_positive_semidefinite,
        lx.is_negative_semidefinite,
    ]:
        if _already_registered(cls, tag):
            continue
        tag.register(cls)(lambda _: False)

    lx.linearise.register(cls)(lambda _: _)
    lx.conj.register(cls)(lambda _: _)


def _monkey_patch_lineax_operator(cls: type[lx.AbstractLinearOperator]) -> None:
    """Patching the lineax operators so that we can call and invert them."""
    _monkey_patch_operator(cls)
    cls.__call__ = AbstractLinearOperator.__call__
    cls.I = AbstractLinearOperator.I
    cls.inverse = AbstractLinearOperator.inverse


def _already_registered(
    cls: type[lx.AbstractLinearOperator], tag: Callable[[AbstractLinearOperator], bool]
) -> bool:
    return any(
        registered_cls is not object and issubclass(cls, registered_cls)
        for registered_cls in tag.registry  # type: ignore[attr-defined]
    )


_monkey_patch_lineax_operator(lx.ComposedLinearOperator)


T = TypeVar('T', bound=AbstractLinearOperator)


def symmetric(cls: type[T]) -> type[T]:
    lx.is_symmetric.register(cls)(lambda _: True)
    square(cls)
    cls.transpose = lambda self: self
    return cls


def positive_semidefinite(cls: type[T]) -> type[T]:
    lx.is_positive_semidefinite.register(cls)(lambda _: True)
    square(cls)
    return cls


def negative_semidefinite(cls: type[T]) -> type[T]:
    lx.is_negative_semidefinite.register(cls)(lambda _: True)
    square(cls)
    return cls


# not a lineax tag
def square(cls: type[T]) -> type[T]:
    cls.out_structure = cls.in_structure
    return cls



# ---- furax/operators/toeplitz.py ----
from collections.abc import Callable
from functools import partial
from typing import ClassVar

import equinox
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
from jax import lax
from jax.typing import ArrayLike
from jaxtyping import Array, Float, Inexact, PyTree

# from furax.operators import AbstractLinearOperator, symmetric  # scaffolding: defined above

__all__ = [
    'SymmetricBandToeplitzOperator',
]


@symmetric
class SymmetricBandToeplitzOperator(AbstractLinearOperator):
    """Class to represent Symmetric Band Toeplitz matrices.

    If the specified band values are multidimensional, the operator is block diagonal, each block
    being a symmetric band Toeplitz matrix that uses the last dimension for the band values.

    The band values may be broadcast to match the input shape of the operator.

    Five methods are available, where N is the size of the Toeplitz matrix and K the number
    of non-zero bands:
        - dense, using the dense matrix: O(N^2)
        - direct, using a direct convolution: O(NK)
        - fft, applying the DFT on the whole input: O(NlogN)
        - overlap_save, applying the DFT on chunked input: O(NlogK)
        - overlap_add, applying the DFT on chunked input: O(NlogK)

    Usage:
        >>> tod = jnp.ones((2, 5))
        >>> op = SymmetricBandToeplitzOperator(
        ... jnp.array([[1., 0.5], [1, 0.25]]),
        ... jax.ShapeDtypeStruct(tod.shape, tod.dtype))
        >>> op(tod)
        Array([[1.5 , 2.  , 2.  , 2.  , 1.5 ],
               [1.25, 1.5 , 1.5 , 1.5 , 1.25]], dtype=float64)
        >>> op.as_matrix()
        Array([[1.  , 0.5 , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  ],
               [0.5 , 1.  , 0.5 , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  ],
               [0.  , 0.5 , 1.  , 0.5 , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  ],
               [0.  , 0.  , 0.5 , 1.  , 0.5 , 0.  , 0.  , 0.  , 0.  , 0.  ],
               [0.  , 0.  , 0.  , 0.5 , 1.  , 0.  , 0.  , 0.  , 0.  , 0.  ],
               [0.  , 0.  , 0.  , 0.  , 0.  , 1.  , 0.25, 0.  , 0.  , 0.  ],
               [0.  , 0.  , 0.  , 0.  , 0.  , 0.25, 1.  , 0.25, 0.  , 0.  ],
               [0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.25, 1.  , 0.25, 0.  ],
               [0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.25, 1.  , 0.25],
               [0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.25, 1.  ]],      dtype=float64)
    """

    METHODS: ClassVar[tuple[str, ...]] = 'dense', 'direct', 'fft', 'overlap_save'
    band_values: Float[Array, '...'] = equinox.field(static=True)
    _in_structure: PyTree[jax.ShapeDtypeStruct] = equinox.field(static=True)
    method: str = equinox.field(static=True)
    fft_size: int | None

    def __init__(
        self,
        band_values: Float[Array, ' a'],
        in_structure: PyTree[jax.ShapeDtypeStruct],
        *,
        method: str = 'overlap_save',
        fft_size: int | None = None,
    ):
        if method not in self.METHODS:
            raise ValueError(f'Invalid method {method}. Choose from: {", ".join(self.METHODS)}')

        band_number = 2 * band_values.size - 1
        if fft_size is not None:
            if not method.startswith('overlap_'):
                raise ValueError('The FFT size is only used by the overlap methods.')
            if fft_size < band_number:
                raise ValueError('The FFT size should not be less than the number of bands.')

        self.band_values = band_values
        self._in_structure = in_structure
        self.method = method
        if fft_size is None and method.startswith('overlap_'):
            fft_size = self._get_default_fft_size(band_number)
        self.fft_size = fft_size

    @staticmethod
    def _get_default_fft_size(band_number: int) -> int:
        additional_power = 1
        return int(2 ** (additional_power + np.ceil(np.log2(band_number))))

    def _get_func(self) -> Callable[[Array, Array], Array]:
        if self.method == 'dense':
            return self._apply_dense
        if self.method == 'direct':
            return self._apply_direct
        if self.method == 'fft':
            return self._apply_fft
        if self.method == 'overlap_add':
            return self._apply_overlap_add
        if self.method == 'overlap_save':
            return self._apply_overlap_save

        raise NotImplementedError

    def _apply_dense(self, x: Array, band_values: Array) -> Array:
        matrix = dense_symmetric_band_toeplitz(x.shape[-1], band_values)
        return matrix @ x

    def _apply_direct(self, x: Array, band_values: Array) -> Array:
        kernel = self._get_kernel(band_values)
        half_band_width = kernel.size // 2
        return jnp.convolve(jnp.pad(x, (half_band_width, half_band_width)), kernel, mode='valid')

    def _apply_fft(self, x: Array, band_values: Array) -> Array:
        kernel = self._get_kernel(band_values)
        half_band_width = kernel.size // 2
        H = jnp.fft.fft(kernel, x.shape[-1] + 2 * half_band_width)
        x_padded = jnp.pad(x, (0, 2 * half_band_width), mode='constant')
        X_padded = jnp.fft.fft(x_padded)
        Y_padded = jnp.fft.ifft(X_padded * H).real
        if half_band_width == 0:
            return Y_padded
        return Y_padded[half_band_width:-half_band_width]

    def _apply_overlap_add(self, x: Array, band_values: Array) -> Array:
        assert self.fft_size is not None
        l = x.shape[-1]
        kernel = self._get_kernel(band_values)
        H = jnp.fft.fft(kernel, self.fft_size)
        half_band_width = kernel.size // 2
        m = self.fft_size - 2 * half_band_width

        # pad x so that its size is a multiple of m
        x_padding = 0 if l % m == 0 else m - (l % m)
        x_padded = jnp.pad(x, (x_padding,), mode='constant')
        y = jnp.zeros(l + 2 * half_band_width, dtype=band_values.dtype)

        def func(j, y):  # type: ignore[no-untyped-def]
            i = j * m
            x_block_not_padded = lax.dynamic_slice(x_padded, (i,), (m,))
            x_block = jnp.pad(
                x_block_not_padded, (half_band_width, half_band_width), mode='constant'
            )
            X_block = jnp.fft.fft(x_block, self.fft_size)
            Y_block = X_block * H
            y_block = jnp.fft.ifft(Y_block).real
            y = lax.dynamic_update_slice(
                y, lax.dynamic_slice(y, (i,), (self.fft_size,)) + y_block, (i,)
            )
            return y

        y = lax.fori_loop(0, len(range(0, l, m)), func, y)
        return y[half_band_width:-half_band_width]

    def _apply_overlap_save(self, x: Array, band_values: Array) -> Array:
        assert self.fft_size is not None
        kernel = self._get_kernel(band_values)
        half_band_width = kernel.size // 2
        H = jnp.fft.fft(kernel, self.fft_size)
        l = x.shape[-1]
        overlap = 2 * half_band_width
        step_size = self.fft_size - overlap
        nblock = int(np.ceil((l + overlap) / step_size))
        total_length = (nblock - 1) * step_size + self.fft_size
        x_padding_start = overlap
        x_padding_end = total_length - overlap - l
        x_padded = jnp.pad(x, (x_padding_start, x_padding_end), mode='constant')
        y = jnp.zeros(l + x_padding_end)

        def func(iblock, y):  # type: ignore[no-untyped-def]
            position = iblock * step_size
            x_block = lax.dynamic_slice(x_padded, (position,), (self.fft_size,))
            X = jnp.fft.fft(x_block)
            y_block = jnp.fft.ifft(X * H).real
            y = lax.dynamic_update_slice(
                y, lax.dynamic_slice(y_block, (2 * half_band_width,), (step_size,)), (position,)
            )
            return y

        y = lax.fori_loop(0, nblock, func, y)
        return y[half_band_width : half_band_width + l]

    def _get_kernel(self, band_values: Array) -> Array:
        """[4, 3, 2, 1] -> [1, 2, 3, 4, 3, 2, 1]"""
        return jnp.concatenate((band_values[-1:0:-1], band_values))

    def mv(self, x: Float[Array, '...']) -> Float[Array, '...']:
        func = jnp.vectorize(self._get_func(), signature='(n),(k)->(n)')
        return func(x, self.band_values)  # type: ignore[no-any-return]

    def as_matrix(self) -> Inexact[Array, 'a a']:
        @partial(jnp.vectorize, signature='(n),(k)->(n,n)')
        def func(x: Array, band_values: Array) -> Array:
            return dense_symmetric_band_toeplitz(x.size, band_values)

        x = jnp.zeros(self.in_structure().shape, self.in_structure().dtype)
        blocks: Array = func(x, self.band_values)
        if blocks.ndim > 2:
            blocks = blocks.reshape(-1, blocks.shape[-1], blocks.shape[-1])
            matrix: Array = jsl.block_diag(*blocks)
            return matrix
        return blocks

    def in_structure(self) -> PyTree[jax.ShapeDtypeStruct]:
        return self._in_structure


def dense_symmetric_band_toeplitz(n: int, band_values: ArrayLike) -> Array:
    """Returns a dense Symmetric Band Toeplitz matrix."""
    band_values = jnp.asarray(band_values)
    output = jnp.zeros(n**2, dtype=band_values.dtype)
    band_width = band_values.size - 1
    for j in range(-band_width, band_width + 1):
        value = band_values[abs(j)]
        m = n - j
        if j >= 0:
            indices = j + jnp.arange(m) * (n + 1)
        else:
            indices = -n * j + jnp.arange(m) * (n + 1)
        output = output.at[indices].set(value)
    return output.reshape(n, n)


def _overlap_add_jax(x, H, fft_size, b):  # type: ignore[no-untyped-def]
    l = x.shape[0]
    if b % 2:
        raise NotImplementedError('Odd bandwidth size not implemented')
    m = fft_size - b

    # pad x so that its size is a multiple of m
    x_padding = 0 if l % m == 0 else m - (l % m)
    x_padded = jnp.pad(x, (x_padding,), mode='constant')
    y = jnp.zeros(l + b)

    def func(j, y):  # type: ignore[no-untyped-def]
        i = j * m
        x_block_not_padded = lax.dynamic_slice(x_padded, (i,), (m,))
        x_block = jnp.pad(x_block_not_padded, (b // 2, b // 2), mode='constant')
        X_block = jnp.fft.fft(x_block, fft_size)
        Y_block = X_block * H
        y_block = jnp.fft.ifft(Y_block).real
        y = lax.dynamic_update_slice(y, lax.dynamic_slice(y, (i,), (fft_size,)) + y_block, (i,))
        return y

    y = lax.fori_loop(0, len(range(0, l, m)), func, y)
    return y[b // 2 : -b // 2 - x_padding]



# ---- tests/operators/test_toeplitz.py ----
def test(method: str, do_jit: bool) -> None:
    band_values = jnp.array([4.0, 3, 2, 1])
    in_structure = jax.ShapeDtypeStruct((6,), jnp.float64)
    x = jnp.array([1.0, 2, 3, 4, 5, 6])
    expected_y = jnp.array([20.0, 33, 48, 57, 58, 50])
    func = SymmetricBandToeplitzOperator(band_values, in_structure, method=method)
    if do_jit:
        func = jit(func)
    y = func(x)
    assert_allclose(y, expected_y, rtol=1e-7, atol=1e-7)


# scaffolding: pytest parametrizes test over the methods with do_jit=True; run them by hand
try:  # scaffolding
    for method in SymmetricBandToeplitzOperator.METHODS:  # scaffolding
        test(method, do_jit=True)  # scaffolding
    _report({"jit(<lambda>)"}, len(SymmetricBandToeplitzOperator.METHODS))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
