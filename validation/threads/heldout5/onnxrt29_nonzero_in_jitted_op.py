# source: https://github.com/google/jaxonnxruntime/issues/29
# expect: trace-time-error at line 33
# runtime: ERROR ConcretizationTypeError
# why: the ONNX NonZero op is implemented as jnp.stack(jnp.nonzero(x)) and run under jax.jit; jnp.nonzero without a static size= has a data-dependent output shape, so tracing raises ConcretizationTypeError.
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


import jax  # scaffolding
import jax.numpy as jnp


def onnx_nonzero(*input_args, **kwargs):  # scaffolding: the op's signature in jaxonnxruntime/onnx_ops/nonzero.py, trimmed
  x = input_args[0]  # scaffolding
  return jnp.stack(jnp.nonzero(x))


jit_func = jax.jit(onnx_nonzero)  # scaffolding: call_onnx.py jits each node's function
try:  # scaffolding
  outputs = jit_func(jnp.array([[1, 0], [0, 3]]))  # scaffolding
  _report({"jit(onnx_nonzero)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
