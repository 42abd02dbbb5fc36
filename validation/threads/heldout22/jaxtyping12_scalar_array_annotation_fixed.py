# source: https://github.com/patrick-kidger/jaxtyping/issues/12
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the reporter's own resolution, isinstance(y, jaxtyping.i[""]), accepts the traced scalar, so foo1 traces and compiles once for two calls.
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
# patrick-kidger/jaxtyping issue #12: the reporter's edit, checking a scalar array type (i[""]) instead of int
import jax
import jaxtyping
from jaxtyping import jaxtyped, Array, Float32, Int  # scaffolding


class f32:  # scaffolding: jaxtyping.f32 (2022 API) was removed; same meaning
    def __class_getitem__(cls, dims):
        return Float32[Array, dims]


class i:  # scaffolding: jaxtyping.i (2022 API) was removed; same meaning
    def __class_getitem__(cls, dims):
        return Int[Array, dims]


jaxtyping.i = i  # scaffolding


@jax.jit
@jaxtyped
def foo1(x: int, t: f32["N"]):
    y: int = x + 3
    assert isinstance(y, jaxtyping.i[""]), f"y is a {type(y)}!"
    ...
    return y  # scaffolding


foo1(1, jax.numpy.ones(3))  # scaffolding
foo1(2, jax.numpy.ones(3))  # scaffolding
_report({"jit(foo1)"}, 2)  # scaffolding
