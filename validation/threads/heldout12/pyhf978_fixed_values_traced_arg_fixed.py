# source: https://github.com/scikit-hep/pyhf/issues/978
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the merged optimizer refactor passes fixed_values as a traced argument and only the index tuples, the flag, the objective and the model as static arguments, so a new fixed value gives a fresh result from the same compile.

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


# src/pyhf/optimize/opt_jax.py as merged in #951 (e55eea40); log.debug line dropped
def _final_objective(
    pars, data, fixed_values, fixed_idx, variable_idx, do_stitch, objective, pdf
):
    tensorlib, _ = get_backend()
    pars = tensorlib.astensor(pars)
    if do_stitch:
        tv = _TensorViewer([fixed_idx, variable_idx])
        constrained_pars = tv.stitch(
            [tensorlib.astensor(fixed_values, dtype='float'), pars]
        )
    else:
        constrained_pars = pars
    return objective(constrained_pars, data, pdf)[0]


_jitted_objective = jax.jit(_final_objective, static_argnums=(3, 4, 5, 6, 7))


def wrap_objective(objective, data, pdf, stitch_pars, do_grad=False, jit_pieces=None):
    tensorlib, _ = get_backend()
    # NB: tuple arguments that need to be hashable (static_argnums)

    def func(pars):
        # need to conver to tuple to make args hashable
        return _jitted_objective(
            pars,
            data,
            jit_pieces['fixed_values'],
            tuple(jit_pieces['fixed_idx']),
            tuple(jit_pieces['variable_idx']),
            jit_pieces['do_stitch'],
            objective,
            pdf,
        )

    return func


pdf = _Pdf()  # scaffolding
data = jnp.array([55.0, 62.0, 53.0])  # scaffolding
pars = jnp.array([1.0])  # the free parameter (background normalisation)

results = []
for mu in [1.0, 2.0]:  # scaffolding: two fits with the POI fixed at different values (as common.shim builds jit_pieces)
    fixed_vals = [(0, mu)]
    fixed_idx = [x[0] for x in fixed_vals]
    fixed_values = [x[1] for x in fixed_vals]
    variable_idx = [x for x in range(2) if x not in fixed_idx]
    func = wrap_objective(
        twice_nll, data, pdf, None,
        jit_pieces={'fixed_idx': fixed_idx, 'variable_idx': variable_idx,
                    'fixed_values': fixed_values, 'do_stitch': True},
    )
    results.append(float(func(pars)))
expected = [float(twice_nll(jnp.array([mu, 1.0]), data, pdf)[0]) for mu in [1.0, 2.0]]  # scaffolding
print("jitted", results, "eager", expected)  # scaffolding
_report({"jit(_final_objective)"}, 2)  # scaffolding
