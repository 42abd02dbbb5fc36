# source: https://github.com/jeertmans/DiffeRT/pull/214
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: before the PR, the jitted merge_cell_ids calls the separately jitted _cell_ids (a scan); the nested jit is traced inside the outer one, so three same-shape merges compile once in total (the PR removes such decorators for dispatch overhead, not recompiles).
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


import jax
import jax.numpy as jnp
from jaxtyping import Array, Int, Shaped


@jax.jit
def _cell_ids(
    array: Shaped[Array, "batch n"],
) -> Int[Array, " batch"]:
    def scan_fun(
        indices: Int[Array, " batch"],
        row_and_index: tuple[Shaped[Array, " n"], Int[Array, " "]],
    ) -> tuple[Int[Array, " batch"], None]:
        row, index = row_and_index
        indices = jnp.where((array == row).all(axis=-1), index, indices)
        return indices, None

    return jax.lax.scan(
        scan_fun,
        init=jnp.empty(array.shape[0], dtype=jnp.int32),
        xs=(array, jnp.arange(array.shape[0])),
        reverse=True,
    )[0]


@jax.jit
def merge_cell_ids(
    cell_ids_a: Int[Array, " *batch"],
    cell_ids_b: Int[Array, " *batch"],
) -> Int[Array, " *batch"]:
    """
    Merge two arrays of cell indices as returned by :meth:`Paths.multipath_cells`.

    Let the returned array be ``cell_ids``,
    then ``cell_ids[i] == cell_ids[j]`` for all ``i``,
    ``j`` indices if
    ``(groups_a[i], groups_b[i]) == (groups_a[j], groups_b[j])``,
    granted that arrays have been reshaped to uni-dimensional
    arrays. Of course, this method handles multiple dimensions
    and will reshape the output array to match initial shape.

    For an actual application example, see :ref:`multipath_lifetime_map`.

    Warning:
        The indices used in the returned array have nothing to
        do with the ones used in individual arrays.

    Args:
        cell_ids_a: The first array of cell indices.
        cell_ids_b: The second array of cell indices.

    Returns:
        The new array group indices.
    """
    batch = cell_ids_a.shape
    return _cell_ids(
        jnp.stack((cell_ids_a, cell_ids_b), axis=-1).reshape(-1, 2),
    ).reshape(batch)


cell_ids_a = jnp.array([0, 0, 1, 1, 2, 2, 3, 3])  # scaffolding: two cell-id arrays as Paths.multipath_cells returns
for k in range(3):  # scaffolding: three merges of same-shape id arrays
    cell_ids_b = jnp.array([0, 1, 0, 1, 0, 1, 0, 1]) * (k + 1)  # scaffolding
    merge_cell_ids(cell_ids_a, cell_ids_b)  # scaffolding
_report({"jit(merge_cell_ids)", "jit(_cell_ids)"}, 3)  # scaffolding
