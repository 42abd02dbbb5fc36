# source: https://github.com/CDCgov/DynODE/pull/62
# expect: stale-closure at line 65
# runtime: COMPILES 1 CALLS 2
# why: external_i is jitted with self static and reads self.config.EXTERNAL_I_DISTRIBUTIONS, which load_external_i_distributions replaces for each new introduction time; the second call hits the cached trace and returns the old curve (0.097 instead of 0.718).
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



from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.stats.norm import pdf
from enum import IntEnum  # scaffolding
from types import SimpleNamespace  # scaffolding


# mechanistic_model/abstract_parameters.py (other methods cut)
class AbstractParameters:
    @partial(jax.jit, static_argnums=(0))
    def external_i(self, t):
        """
        Given some time t, returns jnp.array of shape self.INITIAL_STATE[self.config.COMPARTMENT_IDX.I] representing external infected persons
        interacting with the population. it does so by calling some function f_s(t) for each strain s.

        MUST BE CONTINUOUS AND DIFFERENTIABLE FOR ALL TIMES t.

        Parameters
        ----------
        `t`: float as Traced<ShapedArray(float32[])>
            current time in the model, due to the just-in-time nature of Jax this float value may be contained within a
            traced array of shape () and size 1. Thus no explicit comparison should be done on "t".

        Returns
        -----------
        external_i_compartment: jnp.array()
            jnp.array(shape=(self.INITIAL_STATE[self.config.COMPARTMENT_IDX.I].shape)) of external individuals to the system
            interacting with susceptibles within the system, used to impact force of infection.
        """
        # set up our return value
        external_i_compartment = jnp.zeros(
            self.INITIAL_STATE[self.config.COMPARTMENT_IDX.I].shape
        )
        # default from the config
        external_i_distributions = self.config.EXTERNAL_I_DISTRIBUTIONS
        introduction_age_mask = jnp.where(
            jnp.array(self.config.INTRODUCTION_AGE_MASK),
            1,
            0,
        )
        for strain in self.config.STRAIN_IDX:
            external_i_distribution = external_i_distributions[strain]
            external_i_compartment = external_i_compartment.at[
                introduction_age_mask, 0, 0, strain
            ].set(
                external_i_distribution(t)
                * self.config.INTRODUCTION_PERCENTAGE
                * self.config.POPULATION[self.config.INTRODUCTION_AGE_MASK]
            )
        return external_i_compartment

    def load_external_i_distributions(self, introduction_times):
        """
        a function that loads external_i_distributions array into the model.
        this list of functions dictate the number of infected individuals EXTERNAL TO THE POPULATION are introduced at a particular timestep.

        each function within this list must be differentiable at all input values `t`>=0 and return some value such that
        sum(f(t)) forall t>=0 = 1.0. By default we use a normal PDF to approximate this value.

        Updates
        ----------
        EXTERNAL_I_DISTRIBUTIONS: list[func(jac_tracer(float))->float]
        updates each strain to have its own introduction function,
        centered around the corresponding introduction time in self.config.INTRODUCTION_TIMES
        historical strains, which are introduced before model initialization are given the zero function f(_) -> 0.
        """

        def zero_function(_):
            return 0

        self.config.EXTERNAL_I_DISTRIBUTIONS = [
            zero_function for _ in range(self.config.NUM_STRAINS)
        ]
        for introduced_strain_idx, introduced_time in enumerate(
            introduction_times
        ):
            # earlier introduced strains earlier will be placed closer to historical strains (0 and 1)
            dist_idx = (
                self.config.NUM_STRAINS
                - self.config.NUM_INTRODUCED_STRAINS
                + introduced_strain_idx
            )
            # use a normal PDF with std dv
            self.config.EXTERNAL_I_DISTRIBUTIONS[dist_idx] = partial(
                pdf, loc=introduced_time, scale=self.config.INTRODUCTION_SCALE
            )


class StaticValueParameters(AbstractParameters):  # scaffolding: stand-in for the config-driven parameter classes
    def __init__(self, config):  # scaffolding
        self.config = config  # scaffolding
        self.INITIAL_STATE = tuple(jnp.zeros((2, 1, 1, 3)) for _ in range(4))  # scaffolding: S, E, I, C by (age, hist, vax, strain)


config = SimpleNamespace(  # scaffolding: the Config fields external_i reads
    COMPARTMENT_IDX=IntEnum("COMPARTMENT_IDX", [("S", 0), ("E", 1), ("I", 2), ("C", 3)]),  # scaffolding
    STRAIN_IDX=IntEnum("STRAIN_IDX", [("omicron", 0), ("ba2", 1), ("xbb", 2)]),  # scaffolding
    NUM_STRAINS=3, NUM_INTRODUCED_STRAINS=1, INTRODUCTION_SCALE=10.0,  # scaffolding
    INTRODUCTION_PERCENTAGE=0.01, INTRODUCTION_AGE_MASK=np.array([False, True]),  # scaffolding
    POPULATION=np.array([600.0, 900.0]),  # scaffolding
)  # scaffolding
params = StaticValueParameters(config)  # scaffolding
try:  # scaffolding
    # two draws of the introduction time, loaded before each ODE solve as the inferer's likelihood does
    params.load_external_i_distributions([10.0])  # scaffolding
    peak_a = params.external_i(10.0)  # scaffolding: external infections at the introduction time
    params.load_external_i_distributions([30.0])  # scaffolding
    peak_b = params.external_i(30.0)  # scaffolding: should equal peak_a (the pdf at its own mean)
    print("intro 10 at t=10:", float(peak_a.sum()), "intro 30 at t=30:", float(peak_b.sum()))  # scaffolding: the second is stale (old t=10 curve read at t=30)
    _report({"jit(external_i)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
