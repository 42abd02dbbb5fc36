# source: https://github.com/luchris429/purejaxrl/blob/31756b197773a52db763fdbe6d635e4b46522a73/examples/walkthrough.ipynb
# expect: jit-in-loop-or-body at line 89
# runtime: COMPILES 12 CALLS 12
# why: PureJaxRL walkthrough notebook (meta-evolution section): jax.jit(strategy.ask) and jax.jit(strategy.tell) are re-wrapped inside the generation loop; each attribute access makes a fresh bound method, so both recompile every generation.

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
from typing import NamedTuple  # scaffolding


# scaffolding: minimal stand-in for evosax.OpenES (not installed here). Plain methods with the
# ask(rng, state) / tell(x, fitness, state) signatures the notebook uses.
class _ESState(NamedTuple):  # scaffolding
    mean: jax.Array
    best_fitness: jax.Array


class OpenES:  # scaffolding
    def __init__(self, popsize, pholder_params, opt_name, centered_rank, maximize):
        self.popsize = popsize
        self.num_dims = pholder_params.shape[0]

    def initialize(self, rng):
        return _ESState(jnp.zeros(self.num_dims, jnp.float32), jnp.full((), -jnp.inf, jnp.float32))

    def ask(self, rng, state):
        x = state.mean + 0.1 * jax.random.normal(rng, (self.popsize, self.num_dims))
        return x, state

    def tell(self, x, fitness, state):
        w = jax.nn.softmax(fitness)
        return _ESState(w @ x, jnp.maximum(state.best_fitness, fitness.max()))


# ---- examples/walkthrough.ipynb cell 23
# Hyperparameters
popsize = 128
num_generations = 6  # scaffolding: the notebook runs 512 generations
num_rollouts = 2

# Set up fitness function
# (the PPO inner loop `make_train(config)` of the earlier cells is replaced by a stand-in
#  fitness so the meta-evolution loop can run here)
def single_rollout(rng_input, meta_params):  # scaffolding: stand-in fitness
    return -jnp.sum((meta_params - 1.0) ** 2) + 0.01 * jax.random.normal(rng_input)
vmap_rollout = jax.vmap(single_rollout, in_axes=(0, None))
rollout = jax.jit(jax.vmap(vmap_rollout, in_axes=(None, 0)))

# Set up OpenES
meta_params_pholder = jnp.zeros(8)  # scaffolding: the notebook uses MetaLossNetwork().init(...)
rng = jax.random.PRNGKey(42)
rng, rng_init = jax.random.split(rng)
strategy = OpenES(
    popsize=popsize,
    pholder_params=meta_params_pholder,
    opt_name="adam",
    centered_rank=True,
    maximize=True,
)
state = strategy.initialize(rng_init)

# Run Meta-Evolution
for gen in range(num_generations):
    # 1. SAMPLE: Get new set of meta params
    rng, rng_ask, rng_eval = jax.random.split(rng, 3)
    x, state = jax.jit(strategy.ask)(rng_ask, state)
    # 2. EVALUATE: Eval meta params inner loop PPO trainings
    batch_rng = jax.random.split(rng_eval, num_rollouts)
    fitness = rollout(batch_rng, x).mean(axis=1)
    # 3. UPDATE: Update the ES with the evaluation info
    state = jax.jit(strategy.tell)(x, fitness, state)
    fitness = jax.block_until_ready(fitness)
    print(f"Generation: {gen}, Fitness: {fitness.mean():.2f}, Best: {state.best_fitness:.2f}")
_report({"jit(ask)", "jit(tell)"}, 2 * num_generations)  # scaffolding
