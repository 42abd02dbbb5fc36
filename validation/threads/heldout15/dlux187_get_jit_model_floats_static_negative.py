# source: https://github.com/LouisDesdoigts/dLux/issues/187
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: get_jit_model turns the non-optimised 0-d array leaves into Python floats, which eqx.filter_jit then treats as static; since those values never change across the optimisation loop, the step compiles once for all calls (and, as the thread found, gives no speed-up).
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
import jax.numpy as np  # scaffolding: dLux imports jax.numpy as np
import equinox as eqx  # scaffolding


class Model(eqx.Module):  # scaffolding: stand-in for a dLux model
    wavelength: jax.Array  # scaffolding
    pixel_scale: jax.Array  # scaffolding
    weights: jax.Array  # scaffolding


def float_from_0d(x):
    if isinstance(x, np.ndarray):
        return float(x) if x.ndim == 0 else x
    else:
        return x
    
def get_jit_model(model, args):
    opt, non_opt = eqx.partition(model, args)
    float_model = jax.tree_util.tree_map(float_from_0d, non_opt)
    return eqx.combine(opt, float_model)


model = Model(np.array(5e-7), np.array(0.1), np.ones(3))  # scaffolding
args = eqx.tree_at(lambda m: m.weights, jax.tree_util.tree_map(lambda _: False, model), True)  # scaffolding: model.get_args(parameters)
jit_model = get_jit_model(model, args)


@eqx.filter_jit  # scaffolding
def loss_fn(model, data):  # scaffolding
    return np.sum((model.weights * model.pixel_scale / model.wavelength * 1e-7 - data) ** 2)  # scaffolding


data = np.zeros(3)  # scaffolding
calls = 0  # scaffolding
for i in range(5):  # scaffolding: optimisation loop
    loss_fn(jit_model, data)  # scaffolding
    calls += 1  # scaffolding
    jit_model = eqx.tree_at(lambda m: m.weights, jit_model, jit_model.weights * 0.9)  # scaffolding: update optimised leaves
print(sorted(set(_COMPILED)))  # scaffolding
_report({"jit(loss_fn)"}, calls)  # scaffolding
