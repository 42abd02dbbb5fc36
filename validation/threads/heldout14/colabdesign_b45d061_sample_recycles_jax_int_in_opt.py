# source: https://github.com/sokrypton/ColabDesign/commit/b45d061
# expect: shape-churn at line 106
# runtime: COMPILES 2 CALLS 4
# why: opt["recycles"] normally holds a Python int (a weak-typed int32 under jit), but recycle_mode="sample" writes a strongly typed jax int32 from jax.random.randint straight into the opt dict passed to the jitted grad function, so switching between last and sample retraces and recompiles.

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
import jax.numpy as jnp
import numpy as np


def update_dict(D, *args, **kwargs):
  '''robust function for updating dictionary'''
  def set_dict(d, x):
    for k,v in x.items():
      if v is not None:
        if k in d:
          if isinstance(v, dict):
            set_dict(d[k], x[k])
          elif isinstance(d[k],(np.ndarray,jnp.ndarray)):
            d[k] = np.asarray(v)
          elif d[k] is None:
            d[k] = v
          else:
            d[k] = type(d[k])(v)
        else:
          print(f"ERROR: '{k}' not found in {list(d.keys())}")
  while len(args) > 0 and isinstance(args[0],str):
    D,args = D[args[0]],args[1:]
  for a in args:
    if isinstance(a, dict): set_dict(D, a)
  set_dict(D, kwargs)


class _af_design:
  def __init__(self, recycle_mode="last"):
    # scaffolding: stand-in for mk_afdesign_model (tiny "structure module" loss)
    self._args = {"recycle_mode": recycle_mode}
    self.opt = {"recycles": 1, "lr": 0.1}
    self.params = {"seq": jnp.zeros((8, 20))}
    self._inputs = {"residue_index": jnp.arange(8)}
    self._key = jax.random.PRNGKey(0)

    def _model(params, model_params, inputs, key, opt):
      def body(x, i):  # recycles beyond opt["recycles"] are masked, as in AlphaFold
        new = jnp.tanh(x @ model_params["w"] + params["seq"])
        return jnp.where(i <= opt["recycles"], new, x), None
      out, _ = jax.lax.scan(body, params["seq"], jnp.arange(4))
      loss = jnp.mean(out ** 2)
      return loss, {"prev": out}

    self._grad_fn = jax.jit(jax.value_and_grad(_model, has_aux=True))
    self._fn = jax.jit(_model)

  def key(self):
    self._key, sub = jax.random.split(self._key)
    return sub

  def set_opt(self, *args, **kwargs):
    '''set [opt]ions'''
    update_dict(self.opt, *args, **kwargs)

  def _single(self, model_params, backprop=True):
    '''single pass through the model'''
    flags  = [self.params, model_params, self._inputs, self.key(), self.opt]
    if backprop:
      (loss, aux), grad = self._grad_fn(*flags)
    else:
      loss, aux = self._fn(*flags)
      grad = jax.tree_map(jnp.zeros_like, self.params)
    return {"loss":loss, "aux":aux, "grad":grad}

  def _recycle(self, model_params, backprop=True):
    '''multiple passes through the model (aka recycle)'''
    mode = self._args["recycle_mode"]

    if mode in ["backprop","add_prev"]:
      recycles = self.opt["recycles"] = 3  # scaffolding: self._runner.config.model.num_recycle
      out = self._single(model_params, backprop)

    else:
      recycles = self.opt["recycles"]
      if mode == "sample":
        self.opt["recycles"] = jax.random.randint(self.key(), [], 0, recycles+1)
        out = self._single(model_params, backprop)
        (self.opt["recycles"],recycles) = (recycles,self.opt["recycles"])

      else:
        out = self._single(model_params, backprop)

    out["aux"]["recycles"] = recycles
    return out


# scaffolding: a user runs design steps with recycle_mode="last", then switches to "sample"
model = _af_design()
model_params = {"w": jnp.eye(20) * 0.5}
calls = 0
for mode in ["last", "last", "sample", "sample"]:
  model._args["recycle_mode"] = mode
  out = model._recycle(model_params)
  calls += 1
_report({"jit(_model)"}, calls)
