# source: https://github.com/brentyi/jax_dataclasses/issues/3
# expect: trace-time-error at line 39
# runtime: ERROR ConcretizationTypeError
# why: jit rebuilds the dataclass from its leaves while tracing, which re-runs __post_init__ on a traced a; .item() needs a concrete value, so tracing print_pytree raises ConcretizationTypeError (the reporter's older JAX rebuilt it from placeholder leaves and failed with AttributeError). A static field derived from array data cannot be computed under jit.

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
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc

@jdc.pytree_dataclass()
class PyTreeDataclass:
    a: jnp.ndarray
    _sum: int = jdc.static_field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_sum", self.a.sum().item())

def print_pytree(obj):
    print(obj._sum)

obj = PyTreeDataclass(jnp.arange(4))
print_pytree(obj)
try:  # scaffolding
    jax.jit(print_pytree)(obj)
    _report({"jit(print_pytree)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
