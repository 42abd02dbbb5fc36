# source: https://github.com/jax-ml/jax/pull/10607
# expect: stale-closure at line 47
# runtime: COMPILES 1 CALLS 2
# why: calc marks self static, and the default hash of a custom object is its id, so after `c.mul = False` the second call hits the cached compilation for mul=True and silently returns the stale product 6 instead of 3.

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


class CustomClass:
  def __init__(self, x: jax.Array, mul: bool):
    self.x = x
    self.mul = mul

  # WARNING: broken, as we'll see below. Don't copy & paste!
  @jax.jit(static_argnums=0)
  def calc(self, y):
    if self.mul:
      return self.x * y
    return y

c = CustomClass(2, True)
print(c.calc(3))

c.mul = False
out = c.calc(3)  # Should print 3... but the cache doesn't know mul changed
print(out)
assert int(out) == 6, "not stale"  # scaffolding: 6 is the stale mul=True result
_report({"jit(calc)"}, 2)  # scaffolding
