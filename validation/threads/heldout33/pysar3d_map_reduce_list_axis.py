# source: https://github.com/mrdvorsky/py-sar-3d/blob/c85802752ba044e76b472c36d935ae53721c824f/test_map_reduce/test_map_reduce.py
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: test1/test2 pass axis=[0, 1] (a list) and a kernel function down to _map_reduce_core, whose static_argnames include map_fun and axis, but map_reduce turns axis into a tuple first and the kernel is a module-level function, so each jitted test compiles once.

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
from contextlib import contextmanager
import time
from typing import Callable, Sequence

import jax
import jax.numpy as jnp


# test_map_reduce/jax_map_reduce.py
def _map_reduce_recursion(
    map_fun: Callable[..., jax.Array],
    out_shape: jax.ShapeDtypeStruct,
    arrays: tuple[jax.Array, ...],
    unroll_count: int,
) -> jax.Array:
    if out_shape.ndim == max(a.ndim for a in arrays):
        return map_fun(*arrays)

    arrays_bcast_squeezed = list(
        (ind, jnp.squeeze(a, axis=0))
        for ind, a in enumerate(arrays)
        if (a.shape[0] == 1)
    )

    arrays_full = tuple(a for a in arrays if (a.shape[0] != 1))
    arrays_full_inds = tuple(ind for ind, a in enumerate(arrays) if (a.shape[0] != 1))

    def loop_body(carry, loop_arrays):
        all_args = sorted(
            list(zip(arrays_full_inds, loop_arrays)) + arrays_bcast_squeezed
        )
        return (
            carry
            + _map_reduce_recursion(
                map_fun,
                out_shape,
                tuple(a for _, a in all_args),
                unroll_count,
            ),
            None,
        )

    unrollFactor = 1
    if (out_shape.ndim + 1) == max(a.ndim for a in arrays):
        unrollFactor = unroll_count

    return jax.lax.scan(
        loop_body,
        jnp.zeros(shape=out_shape.shape, dtype=out_shape.dtype),
        arrays_full,
        unroll=unrollFactor,
    )[0]


def _map_reduce_optimize_dims(
    arrays: tuple[jax.Array, ...],
    axis: tuple[int, ...],
) -> tuple[tuple[jax.Array, ...], tuple[int, ...]]:
    return (
        tuple(jnp.moveaxis(a, axis, range(len(axis))) for a in arrays),
        tuple(range(len(axis))),
    )


@jax.jit(static_argnames=("map_fun", "axis", "unroll_count"))
def _map_reduce_core(
    map_fun: Callable[..., jax.Array],
    out_shape: jax.ShapeDtypeStruct,
    arrays: tuple[jax.Array, ...],
    axis: tuple[int, ...],
    unroll_count: int,
) -> jax.Array:
    arrays, axis = _map_reduce_optimize_dims(arrays, axis)
    return _map_reduce_recursion(map_fun, out_shape, arrays, unroll_count)


def map_reduce(
    map_fun: Callable[..., jax.Array],
    *arrays: jax.Array,
    axis: int | Sequence[int] | None = None,
    unroll_count: int = 16,
) -> jax.Array:
    out_shape: jax.ShapeDtypeStruct = jax.eval_shape(
        lambda a_all: jnp.sum(map_fun(*a_all), axis=axis),
        arrays,
    )

    if axis is None:
        axis = range(max(*(a.ndim for a in arrays)))
    elif isinstance(axis, int):
        axis = (axis,)

    return _map_reduce_core(map_fun, out_shape, arrays, tuple(axis), unroll_count)


# test_map_reduce/jax_utils.py (export_graph and the torch timers cut)
@contextmanager
def jax_timer(label="Execution"):
    jax.effects_barrier()
    start = time.perf_counter()

    try:
        yield
    finally:
        jax.effects_barrier()
        end = time.perf_counter()
        print(f"{label}: {end - start:.6f} seconds")


def time_it(func, *args, warm_up=True, **kwargs):
    """
    A wrapper to time a JAX function properly.
    """
    if warm_up:
        _ = func(*args, **kwargs).block_until_ready()

    with jax_timer(label=f"Timing {func.__name__}"):
        result = func(*args, **kwargs).block_until_ready()

    return result


# test_map_reduce/test_map_reduce.py (export_graph calls cut; arrays shrunk)
### Tests
def _kernel(x, y):
    return x + x*y - 2*y + 3.0*x**2
    # return jnp.cos(x - y)

@jax.jit
def test1(x, y):
    return map_reduce(_kernel, x, y, axis=[0, 1], unroll_count=1)

@jax.jit
def test2(x, y):
    return map_reduce(_kernel, x, y, axis=[0, 2], unroll_count=1)


x = jnp.zeros([3, 16, 16, 1])  # scaffolding: [33, 1024, 1024, 1] in the source
y = jnp.zeros([1, 1, 16, 20])  # scaffolding: [1, 1, 1024, 2000] in the source

time_it(test1, x, y)
time_it(test2, x, y)
_report({"jit(test1)", "jit(test2)", "jit(_map_reduce_core)"}, 4)  # scaffolding: warm-up + timed call each
