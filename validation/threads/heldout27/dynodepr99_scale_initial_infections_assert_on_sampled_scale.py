# source: https://github.com/CDCgov/DynODE/pull/99
# expect: trace-time-error at line 82
# runtime: ERROR TracerBoolConversionError
# why: scale_initial_infections asserts that the susceptible scale factor is >= 0, but under MCMC the factor is built from the sampled INITIAL_INFECTIONS_SCALE, a tracer inside the jitted potential, so the assert raises TracerBoolConversionError.
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



import jax  # scaffolding
import jax.numpy as jnp
import numpyro
from jax.random import PRNGKey
from numpyro import distributions as Dist
from numpyro.infer import MCMC, NUTS
from enum import IntEnum  # scaffolding
from types import SimpleNamespace  # scaffolding


# mechanistic_model/abstract_parameters.py (other methods cut)
class AbstractParameters:
    def scale_initial_infections(self, scale_factor):
        """
        a function which modifies returns a modified version of
        self.INITIAL_STATE scaling the number of initial infections by `scale_factor`.

        Preserves the ratio of the Exposed/Infectious compartment population sizes.
        Does not modified self.INITIAL_STATE, returns a copy.

        Parameters
        ----------
        scale_factor: float
            a multiplier value >=0.0.
            `scale_factor` < 1 reduces number of initial infections,
            `scale_factor` == 1.0 leaves initial infections unchanged,
            `scale_factor` > 1 increases number of initial infections.

        Returns
        ---------
        A copy of INITIAL_INFECTIONS with each compartment being scaled according to `scale_factor`
        """
        pop_counts_by_compartment = jnp.array(
            [
                jnp.sum(compartment)
                for compartment in self.INITIAL_STATE[
                    : self.config.COMPARTMENT_IDX.C
                ]
            ]
        )
        initial_infections = (
            pop_counts_by_compartment[self.config.COMPARTMENT_IDX.E]
            + pop_counts_by_compartment[self.config.COMPARTMENT_IDX.I]
        )
        initial_susceptibles = pop_counts_by_compartment[
            self.config.COMPARTMENT_IDX.S
        ]
        # total_pop_size = initial_susceptibles + initial_infections
        new_infections_size = scale_factor * initial_infections
        # negative if scale_factor < 1.0
        gained_infections = new_infections_size - initial_infections
        scale_factor_susceptible_compartment = 1 - (
            gained_infections / initial_susceptibles
        )
        assert scale_factor_susceptible_compartment >= 0, (
            "attempting to move more people out of the susceptible compartment than actually exist inside of it."
            "Your INITIAL_INFECTIONS_SCALE parameter is likely too high"
        )
        # multiplying E and I by the same scale_factor preserves their relative ratio
        scale_factors = [
            scale_factor_susceptible_compartment,
            scale_factor,
            scale_factor,
            1.0,  # for the C compartment, unchanged.
        ]
        # scale each compartment and return
        initial_state = tuple(
            [
                compartment * factor
                for compartment, factor in zip(
                    self.INITIAL_STATE, scale_factors
                )
            ]
        )
        return initial_state


# mechanistic_model/mechanistic_inferer.py (other methods cut)
class MechanisticInferer(AbstractParameters):
    def __init__(self, runner, config):  # scaffolding: the real one reads the global/distribution JSON files
        self.config = config  # scaffolding
        self.runner = runner  # scaffolding
        age = jnp.array([900.0, 600.0]).reshape(2, 1, 1, 1)  # scaffolding: S, E, I, C by (age, hist, vax, strain)
        self.INITIAL_STATE = (age, 0.0 * age + 2.0, 0.0 * age + 3.0, 0.0 * age)  # scaffolding
        self.inference_algo = MCMC(  # scaffolding: as set_infer_algo builds it (NUTS over self.likelihood)
            NUTS(self.likelihood, dense_mass=True, max_tree_depth=5, init_strategy=numpyro.infer.init_to_median),  # scaffolding
            num_warmup=config.INFERENCE_NUM_WARMUP, num_samples=config.INFERENCE_NUM_SAMPLES,  # scaffolding
            num_chains=config.INFERENCE_NUM_CHAINS, progress_bar=config.INFERENCE_PROGRESS_BAR,  # scaffolding
        )  # scaffolding

    def get_parameters(self):  # scaffolding: samples the INITIAL_INFECTIONS_SCALE prior from the distributions file
        return {"INITIAL_INFECTIONS_SCALE": numpyro.sample("INITIAL_INFECTIONS_SCALE", Dist.Uniform(0.5, 2.0)),  # scaffolding
                "BETA": numpyro.sample("BETA", Dist.Uniform(0.1, 0.5))}  # scaffolding

    def likelihood(self, obs_metrics):
        """
        Given some observed metrics, samples the likelihood of them occuring
        under a set of parameter distributions sampled by self.inference_algo.

        Currently expects hospitalization data and samples IHR using a negative binomial distribution.
        """
        parameters = self.get_parameters()
        if "INITIAL_INFECTIONS_SCALE" in parameters.keys():
            initial_state = self.scale_initial_infections(
                parameters["INITIAL_INFECTIONS_SCALE"]
            )
        else:
            initial_state = self.INITIAL_STATE

        solution = self.runner.run(
            initial_state, args=parameters, tf=len(obs_metrics)
        )
        # add 1 to idxs because we are stratified by time in the solution object
        # sum down to just time x age bins
        model_incidence = jnp.sum(
            solution.ys[self.config.COMPARTMENT_IDX.C],
            axis=(
                self.config.I_AXIS_IDX.hist + 1,
                self.config.I_AXIS_IDX.vax + 1,
                self.config.I_AXIS_IDX.strain + 1,
            ),
        )
        # axis = 0 because we take diff across time
        model_incidence = jnp.diff(model_incidence, axis=0)
        # save the final timestep of solution array for each compartment
        numpyro.deterministic(
            "final_timestep_s", solution.ys[self.config.COMPARTMENT_IDX.S][-1]
        )
        numpyro.deterministic(
            "final_timestep_e", solution.ys[self.config.COMPARTMENT_IDX.E][-1]
        )
        numpyro.deterministic(
            "final_timestep_i", solution.ys[self.config.COMPARTMENT_IDX.I][-1]
        )
        numpyro.deterministic(
            "final_timestep_c", solution.ys[self.config.COMPARTMENT_IDX.C][-1]
        )
        # sample infection hospitalization rate here
        with numpyro.plate("num_age", self.config.NUM_AGE_GROUPS):
            ihr = numpyro.sample("ihr", Dist.Beta(0.5, 10))

        numpyro.sample(
            "incidence",
            Dist.Poisson(model_incidence * ihr),
            obs=obs_metrics,
        )


class Runner:  # scaffolding: stand-in for MechanisticRunner.run (an SEIR model stepped daily with lax.scan)
    def run(self, initial_state, args, tf):  # scaffolding
        def step(state, _):  # scaffolding
            s, e, i, c = state  # scaffolding
            n = s + e + i  # scaffolding
            new_e = args["BETA"] * s * i / n  # scaffolding
            new_i = 0.3 * e  # scaffolding
            rec = 0.2 * i  # scaffolding
            nxt = (s - new_e, e + new_e - new_i, i + new_i - rec, c + new_i)  # scaffolding
            return nxt, nxt  # scaffolding
        _, ys = jax.lax.scan(step, initial_state, None, length=tf)  # scaffolding
        ys = tuple(jnp.concatenate([x0[None], y]) for x0, y in zip(initial_state, ys))  # scaffolding: tf + 1 saved days
        return SimpleNamespace(ys=ys)  # scaffolding


config = SimpleNamespace(  # scaffolding: the Config fields the code reads
    COMPARTMENT_IDX=IntEnum("COMPARTMENT_IDX", [("S", 0), ("E", 1), ("I", 2), ("C", 3)]),  # scaffolding
    I_AXIS_IDX=IntEnum("I_AXIS_IDX", [("age", 0), ("hist", 1), ("vax", 2), ("strain", 3)]),  # scaffolding
    NUM_AGE_GROUPS=2, INFERENCE_NUM_WARMUP=30, INFERENCE_NUM_SAMPLES=30,  # scaffolding
    INFERENCE_NUM_CHAINS=1, INFERENCE_PROGRESS_BAR=False,  # scaffolding
)  # scaffolding
obs_metrics = jnp.array([[3, 2], [4, 2], [5, 3], [6, 4], [8, 5], [9, 6], [11, 7], [13, 9]])  # scaffolding: daily hospitalisations by age
inferer = MechanisticInferer(Runner(), config)  # scaffolding
try:  # scaffolding
    inferer.inference_algo.run(rng_key=PRNGKey(8811967), obs_metrics=obs_metrics)  # scaffolding
    print(inferer.inference_algo.get_samples()["INITIAL_INFECTIONS_SCALE"].mean())  # scaffolding
    _report({"jit(_fori_collect_loop)"}, 1)  # scaffolding: one MCMC run
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
