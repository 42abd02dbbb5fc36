# source: https://num.pyro.ai/en/stable/getting_started.html (the test moved to a helper module)
# expect: JIT801 at line 13
# runtime: ERROR TracerBoolConversionError
import jax
import numpy as np
import numpyro
import numpyro.distributions as dist
from _sample_helpers import clip_scale
from numpyro.infer import MCMC, NUTS


def model(y=None):
    tau = clip_scale(numpyro.sample("tau", dist.HalfCauchy(5.0)))
    numpyro.sample("y", dist.Normal(0.0, tau), obs=y)


mcmc = MCMC(NUTS(model), num_warmup=2, num_samples=2, progress_bar=False)
mcmc.run(jax.random.key(0), y=np.array([0.3, -0.2]))
