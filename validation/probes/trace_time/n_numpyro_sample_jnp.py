# source: https://num.pyro.ai/en/stable/getting_started.html (the documented spelling)
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


def model(y=None):
    tau = numpyro.sample("tau", dist.HalfCauchy(5.0))
    tau = jnp.minimum(tau, 1.0)
    data = numpyro.sample("y", dist.Normal(0.0, tau), obs=y)
    if data.shape[0] > 1:
        numpyro.deterministic("spread", jnp.std(data))


mcmc = MCMC(NUTS(model), num_warmup=2, num_samples=2, progress_bar=False)
mcmc.run(jax.random.key(0), y=np.array([0.3, -0.2]))
