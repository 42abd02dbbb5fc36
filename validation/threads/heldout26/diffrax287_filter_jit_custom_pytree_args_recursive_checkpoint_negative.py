# source: https://github.com/patrick-kidger/diffrax/issues/287
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the CustomPytree (no __eq__) passed through the filter_jit-ed value_and_grad of a diffeqsolve with RecursiveCheckpointAdjoint no longer raises on current diffrax/equinox; lossfn compiles once for 2 calls.
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

from jax import numpy as jnp
import diffrax as dfx
import equinox as eqx
from jax.tree_util import register_pytree_node_class

@register_pytree_node_class
class CustomPytree:
  def __init__(self, p):
    self.p = p
    
  def tree_flatten(self):
    return (self.p,), None

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    return cls(*children)
  
  def __mul__(self, other):
    return CustomPytree(self.p * other.p)
  
u = CustomPytree(jnp.ones([32,32]))
c = CustomPytree(jnp.ones([32,32]))

saveat = dfx.SaveAt(t1=True)
solver = dfx.Tsit5()

vector_field = lambda t, x, args: args*x

@eqx.filter_jit
@eqx.filter_value_and_grad
def lossfn(args, u0):
  term = dfx.ODETerm(vector_field)
  
  sol = dfx.diffeqsolve(
    term, solver, 0, 10, 0.1, u0, 
    saveat=saveat, 
    args=args,
    adjoint=dfx.RecursiveCheckpointAdjoint()
  )

  return jnp.mean(sol.ys.p)**2
  
try:  # scaffolding
  outs = lossfn(c, u)
  outs = lossfn(c, u)  # scaffolding: a second call
  print(outs[0])  # scaffolding
  _report({"jit(lossfn)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
  print(str(e)[:300])  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
