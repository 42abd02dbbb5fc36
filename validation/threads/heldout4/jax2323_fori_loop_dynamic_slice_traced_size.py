# source: https://github.com/jax-ml/jax/issues/2323
# expect: trace-time-error at line 42
# runtime: ERROR TracerIntegerConversionError
# why: inside the fori_loop body batch_size = batch_sizes[i] is traced, and dynamic_slice_in_dim needs a concrete slice size, so tracing the body raises TracerIntegerConversionError.

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


from collections import namedtuple  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import lax  # scaffolding
from jax.lax import dynamic_slice_in_dim  # scaffolding

PackedSequence = namedtuple("PackedSequence", ["data", "batch_sizes"])  # scaffolding: torch-style packed input
packed_input = PackedSequence(jnp.ones((6, 2)), jnp.array([3, 2, 1]))  # scaffolding

def body_fun(i, val):
    batch_sizes, packed_input_data, input_offset = val

    batch_size = packed_input.batch_sizes[i]

    #batch = packed_input_data[input_offset:input_offset+batch_size]
    batch = dynamic_slice_in_dim(packed_input_data, input_offset, batch_size)
    input_offset += batch_size

    return batch_sizes, packed_input_data, input_offset

try:  # scaffolding
    lax.fori_loop(0, 3, body_fun, (packed_input.batch_sizes, packed_input.data, 0))  # scaffolding: the call is not shown
    _report({"jit(body_fun)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
