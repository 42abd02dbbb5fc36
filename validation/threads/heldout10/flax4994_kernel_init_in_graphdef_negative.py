# source: https://github.com/google/flax/issues/4994
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: two nnx.Linear layers that differ only in kernel_init are passed to the same nnx.jit forward; on flax 0.12.8 the initializer is not part of the jit cache key, so forward compiles once for both calls.

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
# Testing linear module.
import jax
from flax import nnx

jax.config.update("jax_log_compiles", True)

rngs = nnx.Rngs(0)

linear_0 = nnx.Linear(64, 64, kernel_init=nnx.initializers.zeros, rngs=rngs)
linear_1 = nnx.Linear(64, 64, kernel_init=nnx.initializers.ones, rngs=rngs)

nnx.display(linear_0)
nnx.display(linear_1)


@nnx.jit  # scaffolding: the thread's title says the init functions "affect jit"; the jitted call is not shown
def forward(m, x):  # scaffolding
    return m(x)  # scaffolding


x = jax.numpy.ones((2, 64))  # scaffolding
forward(linear_0, x)  # scaffolding
forward(linear_1, x)  # scaffolding: same shapes and dtypes, only kernel_init differs
print([n for n in _COMPILED if "forward" in str(n)])  # scaffolding
_report({n for n in _COMPILED if "forward" in str(n)}, 2)  # scaffolding
