# source: https://num.pyro.ai/en/stable/primitives.html (a discrete sample site used as a count)
# expect: JIT802 at line 12
# runtime: ERROR ConcretizationTypeError
import jax
import numpyro
import numpyro.distributions as dist
from numpyro.infer import Predictive


def model():
    k = numpyro.sample("k", dist.Poisson(2.0))
    numpyro.deterministic("first", jax.numpy.zeros(int(k)))


print(Predictive(model, num_samples=2)(jax.random.key(0)))
