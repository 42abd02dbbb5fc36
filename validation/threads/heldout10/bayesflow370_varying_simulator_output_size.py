# source: https://github.com/bayesflow-org/bayesflow/issues/370
# expect: shape-churn at line 46
# runtime: COMPILES 4 CALLS 4
# why: The simulator draws a new number of observations n for every batch and the likelihood returns y of size n, so the jitted training step receives arrays of a new shape on almost every batch and recompiles for each value of n.

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
import jax.numpy as jnp
import numpy as np

np.random.seed(0)  # scaffolding


def context(batch_size):
    n = np.random.randint(10, 101)
    return dict(n=n)

def prior():
    mu = np.random.normal()
    sigma = np.random.gamma(shape=2)
    return dict(mu=mu, sigma=sigma)

def likelihood(n, mu, sigma):
    y = np.random.normal(mu, sigma, size=n)
    return dict(y=y)


def make_simulator(fns, meta_fn):  # scaffolding: stand-in for bf.make_simulator
    prior_fn, likelihood_fn = fns

    def sample(batch_size):
        meta = meta_fn(batch_size)
        thetas = [prior_fn() for _ in range(batch_size)]
        ys = [likelihood_fn(**meta, **th)["y"] for th in thetas]
        return dict(mu=np.array([t["mu"] for t in thetas]), sigma=np.array([t["sigma"] for t in thetas]), y=np.stack(ys))

    return SimpleSimulator(sample)


class SimpleSimulator:  # scaffolding
    def __init__(self, sample):
        self.sample = sample


simulator = make_simulator([prior, likelihood], meta_fn=context)


@jax.jit
def train_step(w, mu, sigma, y):  # scaffolding: stand-in for the jitted bayesflow training step
    summary = jnp.stack([jnp.mean(y, axis=1), jnp.log(jnp.std(y, axis=1) + 1e-6)], axis=1)
    pred = summary @ w
    return jnp.mean((pred[:, 0] - mu) ** 2 + (pred[:, 1] - jnp.log(sigma)) ** 2)


w = jnp.eye(2)  # scaffolding
for _ in range(4):  # scaffolding: four training batches
    batch = simulator.sample(8)
    train_step(w, batch["mu"], batch["sigma"], batch["y"])
_report({"jit(train_step)"}, 4)  # scaffolding
