# source: https://github.com/google-deepmind/chex/issues/104
# expect: trace-time-error at line 57
# runtime: ERROR ConcretizationTypeError
# why: chex.dataclass makes every field a pytree leaf, so under jit D.y is a tracer and lax.scan's length=c.y must be concrete: tracing do_scan raises ConcretizationTypeError (the C dataclass with y marked static works).

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
from jax import jit
from jax.lax import scan
from flax.struct import dataclass, field  # scaffolding: was from tjax.dataclasses import dataclass, field
import chex

RealNumeric, IntegralNumeric = float, int  # scaffolding: were imported from tjax

def f(carry, _):
  return carry + 1.0, None

@jit
def do_scan(c):
  final, _ = scan(f, c.x, None, c.y)
  return final

@dataclass
class C:
  x: RealNumeric
  y: IntegralNumeric = field(pytree_node=False)  # scaffolding: was field(static=True)

print(do_scan(C(1.0, 10)))  # works

@chex.dataclass
class D:
  x: RealNumeric
  y: IntegralNumeric

try:  # scaffolding
  print(do_scan(D(x=1.0, y=10)))  # fails
  _report({"jit(do_scan)"}, 2)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
