# source: https://github.com/flatironinstitute/nemos/issues/393
# expect: trace-time-error at line 44
# runtime: ERROR TypeError
# why: min_max_rescale_samples (used by compute_features) sets out-of-range samples with in-place boolean indexing, `sample_pts[(sample_pts < vmin) | (sample_pts > vmax)] = np.nan`; under jax.jit sample_pts is a traced jax array, which cannot be assigned in place, so tracing raises TypeError (the issue names this as one reason bases cannot be jit compiled).
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
from typing import Optional, Tuple
import jax  # scaffolding
import numpy as np
from numpy.typing import NDArray


def check_fraction_valid_samples(*pytree, err_msg, warn_msg):  # scaffolding: stand-in for nemos.validation
    pass  # scaffolding


def min_max_rescale_samples(
    sample_pts: NDArray,
    bounds: Optional[Tuple[float, float]] = None,
) -> Tuple[NDArray, NDArray]:
    """Rescale samples to [0,1]. (docstring cut)"""
    sample_pts = sample_pts.astype(float)
    # if not normalize all array
    vmin = np.nanmin(sample_pts, axis=0) if bounds is None else bounds[0]
    vmax = np.nanmax(sample_pts, axis=0) if bounds is None else bounds[1]
    sample_pts[(sample_pts < vmin) | (sample_pts > vmax)] = np.nan
    sample_pts -= vmin

    scaling = np.asarray(vmax - vmin)
    # do not normalize if samples contain a single value (in which case vmax=vmin)
    scaling[scaling == 0] = 1.0
    sample_pts /= scaling

    check_fraction_valid_samples(
        sample_pts,
        err_msg="All the samples lie outside the [vmin, vmax] range.",
        warn_msg="More than 90% of the samples lie outside the [vmin, vmax] range.",
    )

    return sample_pts, scaling


samples = np.linspace(-0.2, 1.2, 50)  # scaffolding
min_max_rescale_samples(samples, bounds=(0.0, 1.0))  # scaffolding: fine on numpy input
rescale_jit = jax.jit(min_max_rescale_samples, static_argnames="bounds")  # scaffolding
try:  # scaffolding
    rescale_jit(samples, bounds=(0.0, 1.0))  # scaffolding
    _report({"jit(min_max_rescale_samples)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
