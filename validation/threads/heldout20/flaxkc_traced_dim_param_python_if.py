# source: https://flax.readthedocs.io/en/latest/key_concepts.html
# expect: trace-time-error at line 49
# runtime: ERROR TracerBoolConversionError
# why: traced_dim is wrapped in nnx.Param, so under jax.jit it is a tracer and the Python if raises TracerBoolConversionError (the guide catches it inside the function); the if on the plain int attribute dim works.
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


from flax import nnx  # scaffolding
import jax  # scaffolding
_ERR = []  # scaffolding

class Foo(nnx.Module):
  def __init__(self, dim, rngs):
    self.w = nnx.Param(jax.random.normal(rngs.param(), (dim, dim)))
    self.dim = dim
    self.traced_dim = nnx.Param(dim)  # This became traced!
    self.rng = rngs

foo = Foo(4, nnx.Rngs(0))
for kp, x in jax.tree.flatten_with_path(nnx.state(foo))[0]:
  print(f'{jax.tree_util.keystr(kp)}: {x}')

@jax.jit
def jitted(model):
  print(f'{model.dim = }')
  print(f'{model.traced_dim.value = }')  # This is being traced
  if model.dim == 4:
    print('Code path based on static data value works fine.')
  try:
    if model.traced_dim.value == 4:
      print('This will never run :(')
  except jax.errors.TracerBoolConversionError as e:
    _ERR.append(type(e).__name__)  # scaffolding: was print(f'Code path based on JAX data value throws error: {e}')

jitted(foo)
if _ERR:  # scaffolding
    print(f"ERROR {_ERR[0]}")  # scaffolding
else:  # scaffolding
    _report({"jit(jitted)"}, 1)  # scaffolding
