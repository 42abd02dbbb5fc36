# source: https://github.com/jax-ml/jax/issues/15136
# expect: stale-closure at line 53
# runtime: COMPILES 1 CALLS 2
# why: opt is jitted with self static and assigns self.param inside the trace: the assignment runs only while tracing and stores leaked tracers, the second call replays the cache, and the model's nn.param never changes (jakevdp: don't modify self in a jitted function).

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


import functools  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import grad, jit  # scaffolding


class nn:  # scaffolding: the reporter's model is only in a colab; a one-layer stand-in
  def __init__(self):  # scaffolding
    self.param = [(jnp.ones((3, 2)), jnp.zeros(2))]  # scaffolding
    self.lr = 0.1  # scaffolding

  def loss(self, param, data, labels):  # scaffolding
    (w, b), = param  # scaffolding
    return jnp.mean((data @ w + b - labels) ** 2)  # scaffolding


class opt:  # scaffolding: the class around jakevdp's quote of the reporter's method
  def __init__(self, nn, data, labels):  # scaffolding
    self.nn = nn  # scaffolding
    self.data = data  # scaffolding
    self.labels = labels  # scaffolding

  @functools.partial(jit, static_argnums=(0,))
  def opt(self):
    grads=grad(self.nn.loss)(self.nn.param,self.data,self.labels)
    self.param=[(w-self.nn.lr*dw,b-self.nn.lr*db) for (w,b),(dw,db) in zip(self.nn.param,grads)]
    return


o = opt(nn(), jnp.ones((4, 3)), jnp.zeros((4, 2)))  # scaffolding
o.opt()  # scaffolding
o.opt()  # scaffolding: a second training step
print(type(o.param[0][0]).__name__)  # scaffolding: a leaked tracer, not an array
print(o.nn.param[0][0][0])  # scaffolding: the model's weights never move
_report({"jit(opt)"}, 2)  # scaffolding
