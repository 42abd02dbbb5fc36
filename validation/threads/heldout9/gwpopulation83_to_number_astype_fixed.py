# source: https://github.com/ColmTalbot/gwpopulation/pull/83
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR drops the float() around sum(variances) and replaces the per-event and total casts with to_number(value, float), which under the jax backend is value.astype(float); nothing is concretized, so the extra statistics trace and compile once for repeated samples.

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
import jax.numpy as xp
from jax import jit


def to_number(value, func):
    if "jax" in xp.__name__:
        return value.astype(func)
    else:
        return func(value)


class GaussianModel:  # scaffolding: stand-in for the population model (hyper_prior)
    def __init__(self):
        self.parameters = {}

    def prob(self, data):
        return xp.exp(-0.5 * (data["mass"] - self.parameters["mu"]) ** 2) / xp.sqrt(2 * xp.pi)


class HyperparameterLikelihood:  # scaffolding: only the attributes the methods below read
    def __init__(self, data, hyper_prior, selection_function):
        self.data = data
        self.hyper_prior = hyper_prior
        self.sampling_prior = 0.1
        self.samples_per_posterior = data["mass"].shape[-1]
        self.n_posteriors = data["mass"].shape[0]
        self.selection_function = selection_function
        self.conversion_function = lambda parameters: (parameters, None)
        self.parameters = {}

    def _compute_per_event_ln_bayes_factors(self, return_uncertainty=True):
        weights = self.hyper_prior.prob(self.data) / self.sampling_prior
        expectation = xp.mean(weights, axis=-1)
        if return_uncertainty:
            square_expectation = xp.mean(weights**2, axis=-1)
            variance = (square_expectation - expectation**2) / (
                self.samples_per_posterior * expectation**2
            )
            return xp.log(expectation), variance
        else:
            return xp.log(expectation)

    def _selection_function_with_uncertainty(self):
        result = self.selection_function(self.parameters)
        if isinstance(result, tuple):
            selection, variance = result
        else:
            selection = result
            variance = 0.0
        return selection, variance

    def generate_extra_statistics(self, sample):
        self.parameters.update(sample.copy())
        self.parameters, added_keys = self.conversion_function(self.parameters)
        self.hyper_prior.parameters.update(self.parameters)
        ln_ls, variances = self._compute_per_event_ln_bayes_factors(
            return_uncertainty=True
        )
        total_variance = sum(variances)
        for ii in range(self.n_posteriors):
            sample[f"ln_bf_{ii}"] = to_number(ln_ls[ii], float)
            sample[f"var_{ii}"] = to_number(variances[ii], float)
        selection, variance = self._selection_function_with_uncertainty()
        variance /= selection**2
        selection_variance = variance * self.n_posteriors**2
        sample["selection"] = selection
        sample["selection_variance"] = variance
        total_variance += selection_variance
        sample["variance"] = to_number(total_variance, float)
        if added_keys is not None:
            for key in added_keys:
                self.parameters.pop(key)
        return sample


data = {"mass": jax.random.normal(jax.random.PRNGKey(0), (2, 100)) + 1.0}  # scaffolding
likelihood = HyperparameterLikelihood(  # scaffolding
    data, GaussianModel(), lambda parameters: (1.0 / (1.0 + parameters["mu"] ** 2), 1e-4)
)
extra_statistics = jit(likelihood.generate_extra_statistics)  # scaffolding: the jitted call site
for mu in (0.5, 1.0):  # scaffolding: two posterior samples
    sample = extra_statistics({"mu": xp.asarray(mu)})
_report({"jit(generate_extra_statistics)"}, 2)  # scaffolding
