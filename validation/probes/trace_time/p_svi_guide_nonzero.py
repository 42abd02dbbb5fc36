# source: https://num.pyro.ai/en/stable/svi.html
# expect: JIT806 at line 18
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from numpyro.infer import SVI, Trace_ELBO


def model(y):
    loc = numpyro.sample("loc", dist.Normal(0.0, 1.0))
    numpyro.sample("y", dist.Normal(loc, 1.0), obs=y)


def guide(y):
    observed = jnp.nonzero(y)[0]
    mean = numpyro.param("mean", 0.0)
    numpyro.sample("loc", dist.Normal(mean + observed.size, 1.0))


svi = SVI(model, guide, numpyro.optim.Adam(0.1), Trace_ELBO())
print(svi.run(jax.random.key(0), 5, np.array([0.0, 1.0, 2.0]), progress_bar=False).params)
