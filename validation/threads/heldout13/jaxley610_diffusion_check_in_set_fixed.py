# source: https://github.com/jaxleyverse/jaxley/pull/610
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR moves the positivity check into Module.set(), which runs on concrete Python values, so get_all_parameters traces cleanly and the jitted loss compiles once.

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
from typing import Dict, List

import jax
import jax.numpy as jnp
import numpy as np


# scaffolding: a small stand-in for jaxley's Module holding per-compartment parameters; only the
# parts of get_all_parameters that touch diffusion and trainable parameters are kept.
class Cell:
    def __init__(self, ncomp):
        self.ncomp = ncomp
        self.diffusion_states = []
        self.jaxnodes = {
            "radius": jnp.ones(ncomp),
            "length": 10.0 * jnp.ones(ncomp),
            "axial_resistivity": 5000.0 * jnp.ones(ncomp),
            "capacitance": jnp.ones(ncomp),
        }
        self.trainables = []
        self.base = self

    def diffuse(self, state):
        self.diffusion_states.append(state)
        self.jaxnodes[f"axial_diffusion_{state}"] = 1.0 * jnp.ones(self.ncomp)

    def make_trainable(self, key):
        self.trainables.append({"key": key, "indices": np.arange(self.ncomp)[:, None]})
        return [{key: self.jaxnodes[key][:1]}]

    def _compute_axial_conductances(self, params):
        return params["radius"] / (params["axial_resistivity"] * params["length"])

    def set(self, key, val):
        if key in [f"axial_diffusion_{ion_name}" for ion_name in self.diffusion_states]:
            assert val > 0, (
                f"You are trying to set `{key}` to `{val}`. "
                f"We only allow strictly positive values for the "
                f"diffusion. Zero is not allowed either, but you can use very small "
                f"values (e.g. 1e-8)."
            )
        self.jaxnodes[key] = val * jnp.ones(self.ncomp)  # scaffolding: the nodes table update

    def get_all_parameters(
        self, pstate: List[Dict], voltage_solver: str
    ) -> Dict[str, jnp.ndarray]:
        params = {}
        for key in ["radius", "length", "axial_resistivity", "capacitance"]:
            params[key] = self.base.jaxnodes[key]

        for key in self.diffusion_states:
            params[f"axial_diffusion_{key}"] = self.jaxnodes[f"axial_diffusion_{key}"]

        # Override with those parameters set by `.make_trainable()`.
        for parameter in pstate:
            key = parameter["key"]
            inds = parameter["indices"]
            set_param = parameter["val"]

            if key in params:  # Only parameters, not initial states.
                params[key] = params[key].at[inds].set(set_param[:, None])

        # Compute conductance params and add them to the params dictionary.
        params["axial_conductances"] = self.base._compute_axial_conductances(
            params=params
        )
        return params


# scaffolding: the tutorial's set-up (calcium diffusion, the diffusion constant made trainable)
# and a jitted gradient of a loss over the trainable parameters, as in jaxley's training tutorials.
ncomp = 4
cell = Cell(ncomp)
cell.diffuse("CaCon_i")
cell.set("axial_diffusion_CaCon_i", 1e-3)
params = cell.make_trainable("axial_diffusion_CaCon_i")


def loss(params):
    pstate = [
        {"key": t["key"], "indices": t["indices"], "val": p[t["key"]]}
        for t, p in zip(cell.trainables, params)
    ]
    all_params = cell.get_all_parameters(pstate, voltage_solver="jaxley.stone")
    return jnp.sum(all_params["axial_conductances"]) + jnp.sum(all_params["axial_diffusion_CaCon_i"])


grad_fn = jax.jit(jax.grad(loss))
calls = 0
try:
    for step in range(3):
        grads = grad_fn(params)
        calls += 1
    _report({"jit(loss)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
