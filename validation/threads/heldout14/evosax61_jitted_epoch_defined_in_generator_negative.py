# source: https://github.com/RobertTLange/evosax/issues/61
# expect: none
# runtime: COMPILES 2 CALLS 16
# why: The proposed optimize() defines and jits es_epoch and output_fn inside the generator, but they are built once per optimize call and reused on every yielded step, so each compiles once.
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
import types

import jax
import jax.numpy as jnp


# scaffolding: evosax is not installed; a minimal OpenES-like strategy with the same
# initialize/ask/tell/param_reshaper interface (antithetic Gaussian perturbations, SGD step)
class _ESState(types.SimpleNamespace):
    pass


jax.tree_util.register_pytree_node(
    _ESState, lambda s: ((s.mean,), None), lambda _, c: _ESState(mean=c[0]))


class OpenES:
    def __init__(self, popsize, pholder_params, opt_name="adam", lrate_init=1e-4, sigma_init=1e-1):
        self.popsize = popsize
        self.lrate = lrate_init
        self.sigma = sigma_init
        self.param_reshaper = types.SimpleNamespace(reshape_single=lambda m: m)

    def initialize(self, rng, init_mean):
        return _ESState(mean=init_mean)

    def ask(self, rng, state):
        z = jax.random.normal(rng, (self.popsize // 2,) + state.mean.shape)
        z = jnp.concatenate([z, -z])
        return state.mean + self.sigma * z, state

    def tell(self, x, y, state):
        z = (x - state.mean) / self.sigma
        grad = jnp.mean(z * (y - y.mean())[:, None], axis=0) / self.sigma
        return _ESState(mean=state.mean - self.lrate * grad)


evosax = types.SimpleNamespace(OpenES=OpenES)
# end scaffolding



def optimize(f, x, rng, strat, steps_per_output=1):
    def es_step(state, rng):
        rngs = jax.random.split(rng, 1 + strat.popsize)
        x, state = strat.ask(rngs[0], state)
        y = jax.vmap(f)(x, rngs[1:])
        state = strat.tell(x, y, state)
        return state, y.mean()

    @jax.jit
    def es_epoch(state, rng):
        rngs = jax.random.split(rng, steps_per_output)
        state, y = jax.lax.scan(es_step, state, rngs)
        return state, y.mean()

    @jax.jit
    def output_fn(state):
        return strat.param_reshaper.reshape_single(state.mean)

    rng, subrng = jax.random.split(rng)
    state = strat.initialize(subrng, init_mean=x)
    while True:
        rng, subrng = jax.random.split(rng)
        state, y = es_epoch(state, subrng)
        yield output_fn(state), y

def f(x, rng):
    return x @ x + jax.random.normal(rng) * 0.1

def main():
    x = jax.numpy.ones(2)
    rng = jax.random.PRNGKey(0)
    strat = evosax.OpenES(
        popsize=10,
        pholder_params=x,
        opt_name="adam",
        lrate_init=1e-4,
        sigma_init=1e-1,
    )
    calls = 0  # scaffolding
    for i, (x, y) in zip(range(8), optimize(f, x, rng, strat)):  # scaffolding: eight outputs
        calls += 1  # scaffolding
    return calls  # scaffolding


calls = main()  # scaffolding
_report({"jit(es_epoch)", "jit(output_fn)"}, 2 * calls)  # scaffolding
