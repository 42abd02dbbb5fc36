# source: https://github.com/patrick-kidger/equinox/issues/125
# expect: unhashable-static at line 67
# runtime: ERROR TypeError
# why: jax.jit is applied to the Module instance itself; jit keys its cache on the callable, and hashing an eqx.Module hashes its fields, including the jax array, so the first call raises TypeError (unhashable array).

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
import equinox as eqx
import jax


class FirstModule(eqx.Module):

    params: float

    array: jax.numpy.ndarray

    def __init__(
        self,
        param: float,
    ):
        self.params = param
        self.array = jax.numpy.array([param])

    def __call__(self, x):
        return self.array + x


class SecondModule(eqx.Module):

    first_module: FirstModule

    def __init__(
        self,
        first_module: FirstModule,
    ):
        self.first_module = first_module

    def __call__(self, x):
        return self.first_module(x)


first_module = FirstModule(1.0)
# first_module = jax.jit(first_module)
second_module = SecondModule(first_module)
second_module = jax.jit(second_module)
try:
    second_module(jax.numpy.array(2.0))
    second_module(jax.numpy.array(3.0))
    _report({"jit(SecondModule)"}, 2)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
