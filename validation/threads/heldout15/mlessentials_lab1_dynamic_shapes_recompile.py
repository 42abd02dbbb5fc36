# source: https://github.com/saiyedduri/Machine_learning_essentials
# expect: shape-churn at line 38
# runtime: COMPILES 10 CALLS 20
# why: jitted_function is called on jnp.zeros(i+1,) for ten different lengths, so it compiles ten times (the lab: 'the function is compiled for every different input'); the second loop reuses the ten cache entries.
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

def my_function(x):
    print('Running the function with shape', x.shape)
    return x.mean()

jitted_function = jax.jit(my_function)

for i in range(10):
    jitted_function(jnp.zeros(i+1,))

# Running the functions a second time will not print out anything since
# the functions are already jitted for the respective input shapes.
for i in range(10):
    jitted_function(jnp.zeros(i+1,))
_report({"jit(my_function)"}, 20)  # scaffolding
