# source: https://github.com/lanl/scico/pull/519
# expect: jit-in-loop-or-body at line 70
# runtime: COMPILES 3 CALLS 3
# why: jax_indexed_shape (the PR's version) builds a new jax.jit(get_shape, static_argnums=(0, 1)) around a fresh closure on every call, so three calls with the same shape and index compile three times (the reviewer's 1000x slowdown).
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


from typing import Tuple  # scaffolding

import jax

Shape = Tuple[int, ...]  # scaffolding: scico.typing aliases
ArrayIndex = object  # scaffolding


def jax_indexed_shape(shape: Shape, idx: ArrayIndex) -> Tuple[int, ...]:
    """Determine the shape of an array after indexing/slicing.

    The indexed shape is determined by constructing and indexing an array
    of the appropriate shape, relying on :func:`jax.jit` to avoid memory
    allocation. It is potentially more reliable than
    :func:`.indexed_shape` because the indexing/slicing calculations are
    referred to JAX, but is significantly slower, and will involved
    potentially significant memory allocations if JIT is disabled, e.g.
    for debugging purposes.

    Args:
        shape: Shape of array.
        idx: Indexing expression (singleton or tuple of `Ellipsis`,
           `int`, `slice`, or ``None`` (`np.newaxis`)).

    Returns:
        Shape of indexed/sliced array.
    """
    if not isinstance(idx, tuple):
        idx = (idx,)

    # Convert any slices to its representation (slice, (start, stop, step))
    # allowing hashing, needed for jax.jit
    idx = tuple(exp.__reduce__() if isinstance(exp, slice) else exp for exp in idx)  # type: ignore

    def get_shape(in_shape, ind_expr):
        # convert slices representations back to slices
        ind_expr = tuple(
            (slice(*exp[1]) if isinstance(exp, tuple) and len(exp) > 0 and exp[0] == slice else exp)
            for exp in ind_expr
        )
        return jax.numpy.empty(in_shape)[ind_expr].shape

    # This compiles each time it gets new arguments because all arguments are static.
    f = jax.jit(get_shape, static_argnums=(0, 1))

    return tuple(t.item() for t in f(shape, idx))  # type: ignore


# scaffolding: the timing loop of the thread (same shape and index each call)
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    s = jax_indexed_shape((1000, 1000, 1000, 1000), (None, ..., slice(0, 10), slice(15, 0, -1)))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(get_shape)"}, calls)  # scaffolding
