# source: https://github.com/scikit-hep/pyhf/issues/978
# expect: stale-closure at line 87
# runtime: COMPILES 1 CALLS 2
# why: StitchedPars is a static argument whose __hash__/__eq__ ignore fixed_values, so the second fit with a different fixed value hits the first compile and stitches in the old value.

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


class _JaxTensorlib:  # scaffolding: stand-in for pyhf's jax backend (get_backend()[0])
    name = "jax"

    def astensor(self, x, dtype="float"):
        return jnp.asarray(x, dtype=jnp.float32 if dtype == "float" else jnp.int32)

    def concatenate(self, xs, axis=-1):
        return jnp.concatenate(xs, axis=axis)

    def gather(self, x, idx):
        return x[idx]


def get_backend():  # scaffolding
    return _JaxTensorlib(), None


class _TensorViewer(object):  # scaffolding: 1-d part of pyhf.tensor.common._TensorViewer
    def __init__(self, indices):
        self._sorted_indices = np.argsort(np.concatenate(indices)).tolist()

    def stitch(self, data):
        tensorlib, _ = get_backend()
        data = tensorlib.concatenate(data, axis=-1)
        return tensorlib.gather(data, tensorlib.astensor(self._sorted_indices, dtype="int"))


class _Pdf:  # scaffolding: stand-in model, expected = pars[0] * signal + pars[1] * background
    def __init__(self):
        self.signal = jnp.array([5.0, 10.0, 5.0])
        self.background = jnp.array([50.0, 52.0, 48.0])

    def expected_data(self, pars):
        return pars[0] * self.signal + pars[1] * self.background


def twice_nll(pars, data, pdf):  # scaffolding: stand-in objective (Gaussian, returns shape (1,))
    return jnp.sum((data - pdf.expected_data(pars)) ** 2 / data)[None]


# the class as written
class StitchedPars(object):
  def __init__(self, tv=None, fixed_values=None):
    self.tv = tv
    self.fixed_values = fixed_values

  def __call__(self, pars, stitch_with=None):
      fixed_values = stitch_with or self.fixed_values
      if self.tv:
          tb, _ = get_backend()
          return self.tv.stitch([tb.astensor(fixed_values, dtype='float'), pars])
      else:
          return pars
  def __hash__(self):
      return hash('thisisauniquehash')
  def __eq__(self, other):
      return True


# reconstruction: the jitted objective of the branch, with the stitcher passed as a static argument
def _final_objective(pars, data, stitch_pars, objective, pdf):
    constrained_pars = stitch_pars(pars)
    return objective(constrained_pars, data, pdf)[0]


_jitted_objective = jax.jit(_final_objective, static_argnums=(2, 3, 4))

pdf = _Pdf()  # scaffolding
data = jnp.array([55.0, 62.0, 53.0])  # scaffolding
tv = _TensorViewer([[0], [1]])  # parameter 0 (the POI) fixed, parameter 1 free
pars = jnp.array([1.0])  # the free parameter (background normalisation)

results = []
for mu in [1.0, 2.0]:  # scaffolding: two fits with the POI fixed at different values
    stitch_pars = StitchedPars(tv, [mu])
    results.append(float(_jitted_objective(pars, data, stitch_pars, twice_nll, pdf)))
expected = [float(twice_nll(jnp.array([mu, 1.0]), data, pdf)[0]) for mu in [1.0, 2.0]]  # scaffolding
print("jitted", results, "eager", expected)  # scaffolding: the second jitted value is the first one
_report({"jit(_final_objective)"}, 2)  # scaffolding
