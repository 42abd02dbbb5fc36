# source: https://github.com/jax-ml/jax/issues/12331
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with the axis as a plain Python int (the static axis the maintainer says is required) the jitted squeeze traces and compiles once.

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

def fn(inp):
    axis = 1  # fixed: a static Python int instead of jax.numpy.array(1)
    return jax.numpy.squeeze(inp, axis)

mykey = jax.random.PRNGKey(0)
inp = jax.random.uniform(mykey, [3, 1], jax.numpy.float32, minval=0, maxval=1)

print(fn(inp))
fn_jit = jax.jit(fn)  # scaffolding: one jitted object for both calls
print(fn_jit(inp))
print(fn_jit(inp + 1))  # scaffolding: a second call
_report({"jit(fn)"}, 2)  # scaffolding
