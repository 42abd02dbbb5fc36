# source: https://github.com/scverse/scvi-tools/pull/1367
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the jitted _is_not_count_val always gets n_to_check=20 sampled values, so it compiles once for 3 datasets; the Python 'not (negative or non_integer)' runs on the returned concrete arrays, outside jit.
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
import numpy as np


def _check_nonnegative_integers(
    data,
    n_to_check: int = 20,
):
    """Approximately checks values of data to ensure it is count data."""

    # h5py/SparseDataset, scipy.sparse and pandas branches dropped: scaffolding
    if isinstance(data, np.ndarray):
        data = data
    else:
        raise TypeError("data type not understood")

    inds = np.random.choice(len(data), size=(n_to_check,))
    check = jax.device_put(data.flat[inds], device=jax.devices("cpu")[0])
    negative, non_integer = _is_not_count_val(check)
    return not (negative or non_integer)


@jax.jit
def _is_not_count_val(data: jnp.ndarray):
    negative = jnp.any(data < 0)
    non_integer = jnp.any(data % 1 != 0)

    return negative, non_integer


rng = np.random.default_rng(0)  # scaffolding: three count matrices of different sizes
for n_cells in (50, 80, 120):  # scaffolding
    X = rng.poisson(2.0, size=(n_cells, 30)).astype(np.float32)  # scaffolding
    assert _check_nonnegative_integers(X)  # scaffolding
_report({"jit(_is_not_count_val)"}, 3)  # scaffolding
