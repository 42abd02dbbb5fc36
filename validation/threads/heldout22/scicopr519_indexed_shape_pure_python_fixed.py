# source: https://github.com/lanl/scico/pull/519
# expect: none
# runtime: COMPILES 0 CALLS 3
# why: the existing indexed_shape that the reviewers kept computes the indexed shape in plain Python (slice.indices), so repeated calls compile nothing.
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


from typing import List, Optional, Tuple, Union  # scaffolding

import jax

Shape = Tuple[int, ...]  # scaffolding: scico.typing aliases
ArrayIndex = AxisIndex = object  # scaffolding


def slice_length(length: int, idx: AxisIndex) -> Optional[int]:
    """Determine the length of an array axis after indexing.

    Determine the length of an array axis after slicing. An exception is
    raised if the indexing expression is an integer that is out of bounds
    for the specified axis length. A value of ``None`` is returned for
    valid integer indexing expressions as an indication that the
    corresponding axis shape is an empty tuple; this value should be
    converted to a unit integer if the axis size is required.

    Args:
        length: Length of axis being sliced.
        idx: Indexing/slice to be applied to axis.

    Returns:
        Length of indexed/sliced axis.

    Raises:
        ValueError: If `idx` is an integer index that is out bounds for
            the axis length or if the type of `idx` is not one of
            `Ellipsis`, `int`, or `slice`.
    """
    if idx is Ellipsis:
        return length
    if isinstance(idx, int):
        if idx < -length or idx > length - 1:
            raise ValueError(f"Index {idx} out of bounds for axis of length {length}.")
        return None
    if not isinstance(idx, slice):
        raise ValueError(f"Index expression {idx} is of an unrecognized type.")
    start, stop, stride = idx.indices(length)
    if start > stop:
        start = stop
    return (stop - start + stride - 1) // stride


def indexed_shape(shape: Shape, idx: ArrayIndex) -> Tuple[int, ...]:
    """Determine the shape of an array after indexing/slicing.

    The indexed shape is determined by replicating the observed effects
    of NumPy/JAX array indexing/slicing syntax. It is significantly
    faster than :func:`.jax_indexed_shape`, and has a minimal memory
    footprint in all circumstances.

    Args:
        shape: Shape of array.
        idx: Indexing expression (singleton or tuple of `Ellipsis`,
           `int`, `slice`, or ``None`` (`np.newaxis`)).

    Returns:
        Shape of indexed/sliced array.

    Raises:
        ValueError: If any element of `idx` is not one of `Ellipsis`,
        `int`, `slice`, or ``None`` (`np.newaxis`), or if an integer
        index is out bounds for the corresponding axis length.
    """
    if not isinstance(idx, tuple):
        idx = (idx,)
    idx_shape: List[Optional[int]] = list(shape)
    offset = 0
    newaxis = 0
    for axis, ax_idx in enumerate(idx):
        if ax_idx is None:
            idx_shape.insert(axis, 1)
            newaxis += 1
            continue
        if ax_idx is Ellipsis:
            offset = len(shape) - len(idx)
            continue
        idx_shape[axis + offset + newaxis] = slice_length(shape[axis + offset], ax_idx)
    return tuple(filter(lambda x: x is not None, idx_shape))  # type: ignore



# scaffolding: the timing loop of the thread (same shape and index each call)
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    s = indexed_shape((1000, 1000, 1000, 1000), (None, ..., slice(0, 10), slice(15, 0, -1)))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(get_shape)", "jit(indexed_shape)"}, calls)  # scaffolding
