# source: https://github.com/flo-schu/pymob/commit/c11b4ac65b8c511e215bbbb20b7f47439daf9977
# expect: stale-closure at line 94
# runtime: ERROR UnexpectedTracerError
# why: parameterize updates model_parameters["parameters"], the dict held by the functools.partial built in __init__, with the theta the numpyro model passes under jit, so a tracer is left in the simulation and the later plain dispatch() raises UnexpectedTracerError.
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



# pymob (ecotoxicology / ODE parameter-inference framework): pymob/simulation.py (SimulationBase: the
# parameterize partial set up in __init__, the parameterize staticmethod, dispatch) and
# pymob/inference/numpyro_backend.py (parse_deterministic_model) at the parent of c11b4ac, flattened.
import copy
from collections import OrderedDict
from functools import partial
from typing import Dict, Mapping, Sequence, Any

import jax
import jax.numpy as jnp
import numpy as np
import numpyro  # scaffolding
import numpyro.distributions as dist  # scaffolding

NumericArray = Any  # scaffolding: pymob.sim.parameters.NumericArray (numpydantic type)


class Evaluator:  # scaffolding: stand-in for pymob's Evaluator (spawned per dispatch, solves the ODE)
    def __init__(self, t):  # scaffolding
        self.t = t  # scaffolding
        self.parameters = None  # scaffolding

    def spawn(self):  # scaffolding
        return Evaluator(self.t)  # scaffolding

    def __call__(self, seed=None):  # scaffolding: exponential growth y' = alpha * y, solved exactly
        p = self.parameters["parameters"]  # scaffolding
        self.Y = {"wolves": p["y0_wolves"] * jnp.exp(p["alpha"] * self.t)}  # scaffolding


class SimulationBase:
    def __init__(self, model_parameters):  # scaffolding: the config/dataset set-up of __init__ is cut
        self.model_parameters = model_parameters  # scaffolding
        self.evaluator = Evaluator(jnp.linspace(0.0, 1.0, 5))  # scaffolding

        self.parameterize = partial(
            self.parameterize, 
            model_parameters=copy.deepcopy(dict(self.model_parameters))
        )

    @staticmethod
    def validate_model_input(model_input) -> OrderedDict[str, Sequence[float]]:  # scaffolding: xr.Dataset branch cut
        return OrderedDict(model_input)  # scaffolding

    @staticmethod
    def parameterize(free_parameters: Dict[str,float|str|int], model_parameters: Dict) -> Dict:
        """
        Optional. Set parameters and initial values of the model. 
        Must return a dictionary with the keys 'y0' and 'parameters'
        
        Can be used to define parameters directly in the script or from a 
        parameter file.

        Arguments
        ---------

        input: List[str] file paths of parameter/input files
        theta: List[Param] a list of Parameters. By default the parameters
            specified in the settings.cfg are used in this list. 

        returns
        -------

        tulpe: tuple of parameters, can have any length.
        """
        parameters = model_parameters["parameters"]
        parameters.update(free_parameters)

        updated_model_parameters = dict(parameters=parameters)
        for k, v in model_parameters.items():
            if k == "parameters":
                continue
            
            updated_model_parameters[k] = v

        return updated_model_parameters

    def dispatch(
            self, 
            theta: Mapping[str, float|NumericArray|Sequence[float]] = {}, 
            y0: Mapping[str, float|NumericArray|Sequence[float]] = {}, 
            x_in: Mapping[str, float|NumericArray|Sequence[float]] = {}, 
        ):
        """Dispatch an evaluator, which will compute the model for the parameters
        (theta), starting values (y0) and model input (x_in). 
        """
        model_parameters = self.parameterize(dict(theta)) #type: ignore
        # can be initialized
        if "y0" in model_parameters:
            y0_ = self.validate_model_input(model_parameters["y0"])
            
            # update keys passed to y0
            y0_.update(y0)
            model_parameters["y0"] = y0_
        else:
            model_parameters["y0"] = OrderedDict({})
        
        if "x_in" in model_parameters:
            x_in_ = self.validate_model_input(model_parameters["x_in"])

            # update keys passed to x_in
            x_in_.update(x_in)
            model_parameters["x_in"] = x_in_
        else:
            model_parameters["x_in"] = OrderedDict({})
        
        evaluator = self.evaluator.spawn()
        evaluator.parameters = model_parameters
        return evaluator


class NumpyroBackend:
    def __init__(self, simulation):  # scaffolding
        self.simulation = simulation  # scaffolding

    def parse_deterministic_model(self):
        """Parses an evaluation function from the Simulation object, which 
        takes a single argument theta and defaults to passing no seed to the
        deterministic evaluator.
        """
        def evaluator(theta, y0={}, x_in={}, seed=None):
            evaluator = self.simulation.dispatch(theta=theta, y0=y0, x_in=x_in)
            evaluator(seed)
            return evaluator.Y
        
        return evaluator


sim = SimulationBase({"parameters": {"alpha": 0.5, "y0_wolves": 2.0}})  # scaffolding: the lotka_volterra test scenario, reduced
inferer = NumpyroBackend(sim)  # scaffolding: sim.set_inferer(backend="numpyro")
solver = inferer.parse_deterministic_model()  # scaffolding


def model(solver):  # scaffolding: stand-in for the numpyro model pymob generates
    alpha = numpyro.sample("alpha", dist.LogNormal(0.0, 0.5))  # scaffolding
    return solver(theta={"alpha": alpha})  # scaffolding


@jax.jit  # scaffolding: numpyro traces the model under jit (prior predictive / MCMC)
def prior_predictive(key):  # scaffolding
    return numpyro.handlers.seed(model, key)(solver)["wolves"]  # scaffolding


calls = 0  # scaffolding
try:  # scaffolding
    for i in range(2):  # scaffolding: sim.prior_predictive_checks()
        prior_predictive(jax.random.PRNGKey(i))  # scaffolding
        calls += 1  # scaffolding
    e = sim.dispatch()  # scaffolding: as in the test this commit adds
    e()  # scaffolding
    print("alpha after inference:", type(sim.parameterize.keywords["model_parameters"]["parameters"]["alpha"]).__name__)  # scaffolding
    _report({"jit(prior_predictive)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
