# source: https://github.com/tumaer/JAXFLUIDS/commit/9ffb5244bbfd4fc86f4ae879de0dc594985bef17
# expect: bad-static-spec at line 67
# runtime: ERROR TypeError
# why: The pmapped extension step receives the MachineLearningSetup (which holds the ML callables) as an ordinary broadcast argument, so pmap rejects the function leaves instead of treating them as static.
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



from typing import Any, Dict, NamedTuple, Tuple

import jax
import jax.numpy as jnp


# jaxfluids/data_types/ml_buffers.py
class ConvectiveFluxesSetup(NamedTuple):
    flux_function: Any = None
    cell_face_reconstruction: Any = None

class LevelSetSetup(NamedTuple):
    fluid_fluid: Any = None
    fluid_solid: Any = None

class BaseSetup(NamedTuple):
    convective_fluxes: ConvectiveFluxesSetup = None
    levelset: LevelSetSetup = None
    boundary_conditions: Any = None
    callbacks: Any = None

class ParametersSetup(BaseSetup):
    pass

class CallablesSetup(BaseSetup):
    pass

class MachineLearningSetup(NamedTuple):
    callables: CallablesSetup = None
    parameters: ParametersSetup = None


# jaxfluids/initialization/initialization_manager.py (cut)
class InitializationManager:  # scaffolding: cut to the level-set extension step of initialization()
    def initialization(self, material_fields, levelset_fields, time_control_variables, ml_setup, is_parallel=True):  # scaffolding
        if is_parallel:
            extension_and_interface_quantities_fn = jax.pmap(
                self.extension_and_interface_quantities,
                axis_name="i",
                in_axes=(0,0,None,None),
                out_axes=(0,0)
            )
        else:
            extension_and_interface_quantities_fn = self.extension_and_interface_quantities

        (
            material_fields,
            levelset_fields,
        ) = extension_and_interface_quantities_fn(
            material_fields,
            levelset_fields,
            time_control_variables,
            ml_setup
        )
        return material_fields, levelset_fields

    def extension_and_interface_quantities(
            self,
            material_fields,
            levelset_fields,
            time_control_variables,
            ml_setup: MachineLearningSetup
        ):
        interface_flux = ml_setup.callables.levelset.fluid_solid  # scaffolding: the ML interface model used by the extension
        params = ml_setup.parameters.levelset.fluid_solid  # scaffolding
        primitives = material_fields + time_control_variables * interface_flux(params, levelset_fields)  # scaffolding
        return primitives, levelset_fields


def interface_mlp(params, levelset):  # scaffolding: a learned fluid-solid interface model
    return jnp.tanh(levelset * params["w"] + params["b"])  # scaffolding


ml_setup = MachineLearningSetup(  # scaffolding: combine_callables_and_params, as the simulation manager builds it
    CallablesSetup(levelset=LevelSetSetup(fluid_solid=interface_mlp)),  # scaffolding
    ParametersSetup(levelset=LevelSetSetup(fluid_solid={"w": jnp.float32(0.5), "b": jnp.float32(0.1)})))  # scaffolding
ndev = jax.local_device_count()  # scaffolding: one block per device
manager = InitializationManager()  # scaffolding
try:  # scaffolding
    for case in range(2):  # scaffolding: two restarts initialized with the same setup
        material = jnp.ones((ndev, 8, 8)) * case  # scaffolding
        levelset = jnp.linspace(-1, 1, 64).reshape(1, 8, 8).repeat(ndev, 0)  # scaffolding
        manager.initialization(material, levelset, jnp.float32(0.01), ml_setup)  # scaffolding
    _report({"jit(_fun)", "pmap(extension_and_interface_quantities)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
