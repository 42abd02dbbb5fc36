# source: https://github.com/apple/axlearn/issues/815
# expect: trace-time-error at line 39
# runtime: ERROR TracerBoolConversionError
# why: check_numerics asserts bool(jnp.isfinite(x).all()); inside a jitted function x is traced, so bool() raises TracerBoolConversionError, as the issue says for jit, pmap and scan.

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
import jax.numpy as jnp  # scaffolding

Tensor = jax.Array  # scaffolding
_enable_numeric_checks = True  # scaffolding: the module-level switch the function reads


def check_numerics(x: Tensor, msg_fmt: str = "", **msg_kwargs):
    """Checks that all elements in `x` are finite."""
    global _enable_numeric_checks  # pylint: disable=global-statement,global-variable-not-assigned
    if _enable_numeric_checks:
        assert bool(jnp.isfinite(x).all()), f"Check numerics {msg_fmt.format(**msg_kwargs)}: {x}"


@jax.jit  # scaffolding: "check_numerics doesn't work inside jit, pmap, and scan"
def layer(inputs):  # scaffolding
    check_numerics(inputs, msg_fmt="inputs")  # scaffolding
    return inputs * 2.0  # scaffolding


try:  # scaffolding
    layer(jnp.ones((4,)))
    _report({"jit(layer)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
