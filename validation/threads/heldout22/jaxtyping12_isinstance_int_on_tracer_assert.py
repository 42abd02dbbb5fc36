# source: https://github.com/patrick-kidger/jaxtyping/issues/12
# expect: trace-time-error at line 40
# runtime: ERROR AssertionError
# why: under jit, x + 3 is a traced array, not a Python int, so the assert isinstance(y, int) fails while tracing (AssertionError: y is a DynamicJaxprTracer).
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
# patrick-kidger/jaxtyping issue #12: asserting a Python int type on an intermediate inside a jitted function
import jax
import jaxtyping  # scaffolding
from jaxtyping import jaxtyped, Array, Float32, Int  # scaffolding


class f32:  # scaffolding: jaxtyping.f32 (2022 API) was removed; same meaning
    def __class_getitem__(cls, dims):
        return Float32[Array, dims]


@jax.jit
@jaxtyped
def foo1(x: int, t: f32["N"]):
    y: int = x + 3
    assert isinstance(y, int), f"y is a {type(y)}!"
    ...
    return y  # scaffolding


try:  # scaffolding
    foo1(1, jax.numpy.ones(3))  # scaffolding
    _report({"jit(foo1)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
