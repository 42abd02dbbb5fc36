# source: https://github.com/patrick-kidger/equinox/issues/1034
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the reporter's static field holding a JAX scalar derived in __post_init__ only warns; under filter_jit equal-valued instances share one compile and a new value compiles once more (2 compiles for 4 calls: three equal modules, one different).

import warnings  # scaffolding

warnings.simplefilter("ignore")  # scaffolding: the UserWarnings the issue quotes
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
import jax.numpy as jnp


class MyFunc(eqx.Module):
    a : float
    b : float
    len : float = eqx.field(init=False, static=True)

    def __post_init__(self):
        self.len = jnp.sqrt(self.a**2 + self.b**2)

    def __call__(self, x):
        return self.len * x

MyFunc(a=3.0, b=4.0)(jax.numpy.array(1.0))


@eqx.filter_jit  # scaffolding
def call(module, x):  # scaffolding
    return module(x)  # scaffolding


calls = 0  # scaffolding
for a, b in [(3.0, 4.0), (3.0, 4.0), (6.0, 8.0), (3.0, 4.0)]:  # scaffolding
    print(call(MyFunc(a=a, b=b), jnp.array(1.0)))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(call)"}, calls)  # scaffolding
