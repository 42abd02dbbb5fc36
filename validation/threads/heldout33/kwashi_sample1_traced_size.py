# source: https://github.com/k-washi/jax-examples/blob/7b8ac432cc25029938fe23fffe6187cc2ad83cee/tutorial/sample1.ipynb
# expect: trace-time-error at line 37
# runtime: ERROR ConcretizationTypeError
# why: Learner tutorial notebook: a jitted function builds jnp.arange(size**2) from its traced argument `size`, which raises ConcretizationTypeError (the notebook documents the error and comments the call out).

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
import jax.numpy as jnp
from jax import jit

# ---- tutorial/sample1.ipynb cell 10
#jitでラップした関数に引数を渡す時
#ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected.
@jit
def variable_jax_dot_badexample(size):
    x = jnp.arange(size**2, dtype=jnp.float32).reshape(size, size)
    x_gram = jnp.dot(x, x.T)
    return x_gram

try:  # scaffolding
    variable_jax_dot_badexample(5)  # the notebook keeps this call commented out
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
