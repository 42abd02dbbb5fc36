# source: https://github.com/jax-ml/jax/issues/31250
# expect: shape-churn at line 52
# runtime: COMPILES 2 CALLS 2
# why: f's output carries the NamedSharding set by with_sharding_constraint; feeding it back as the next input changes the argument's sharding, so jit retraces and recompiles f although the jaxpr is identical.

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
import os  # scaffolding
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"  # scaffolding

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

x1 = jnp.array(0, dtype=jnp.int32)
mesh = jax.make_mesh((2,), ('device',))

@jax.jit
def f(x):
    print('trace')
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P()))
    x = x + 1
    return x

### f is traced twice
print('f(x1):')
x2 = f(x1)
print(x2)

print('f(x2):')
x3 = f(x2)
print(x3)
_report({"jit(f)"}, 2)  # scaffolding
