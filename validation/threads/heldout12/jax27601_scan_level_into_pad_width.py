# source: https://github.com/jax-ml/jax/issues/27601
# expect: trace-time-error at line 48
# runtime: ERROR ConcretizationTypeError
# why: lax.scan hands the body current_level as a traced int, so the pad widths derived from it are tracers and jnp.pad (which needs static pad widths) fails while scan traces its body.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding

filt_len = 4  # scaffolding
filt = jnp.ones((2, 1, filt_len), jnp.float32)  # scaffolding: two output channels (lo, hi), one input channel
precision = "highest"  # scaffolding
level = 3  # scaffolding
data = jnp.ones((1, 1, 32), jnp.float32)  # scaffolding


def scan_body(res_lo, current_level):
    # current_level is expected to be static, but here it's traced.
    dilation = 2 ** current_level
    padl = dilation * (filt_len // 2 - 1)
    padr = dilation * (filt_len // 2)
    # Compute pad_config for jnp.pad: it requires static integer values.
    pad_config = [(0, 0)] * (res_lo.ndim - 1) + [(padl, padr)]

    res_lo_padded = jnp.pad(res_lo, pad_config, mode="wrap")
    res = jax.lax.conv_general_dilated(
        lhs=res_lo_padded,
        rhs=filt,
        padding=[(0, 0)],
        window_strides=[1],
        rhs_dilation=[dilation],
        dimension_numbers=("NCT", "OIT", "NCT"),
        precision=jax.lax.Precision(precision),
    )
    res_lo_new, res_hi = jnp.split(res, 2, axis=1)
    return res_lo_new, res_hi.squeeze(1)

try:  # scaffolding
    # Use lax.scan with a traced sequence.
    final_res_lo, details = jax.lax.scan(scan_body, data, np.arange(level))
    _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
