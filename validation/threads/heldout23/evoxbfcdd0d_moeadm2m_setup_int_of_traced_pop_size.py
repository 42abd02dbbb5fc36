# source: https://github.com/EMI-Group/evox/commit/bfcdd0dbe910d7047589d7a71e353d847bb0162d
# expect: trace-time-error at line 112
# runtime: ERROR ConcretizationTypeError
# why: The jitted setup recomputes pop_size with jnp.ceil (a tracer under jit) and then calls int() on it, which raises ConcretizationTypeError.
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



import jax
import jax.numpy as jnp
from itertools import combinations as n_choose_k
from math import comb


class State(dict):  # scaffolding: evox.State (a pytree of named fields with replace)
    def __getattr__(self, k):  # scaffolding
        return self[k]  # scaffolding

    def replace(self, **kw):  # scaffolding
        return State({**self, **kw})  # scaffolding


jax.tree_util.register_pytree_node(State, lambda s: (list(s.values()), list(s.keys())),  # scaffolding
                                   lambda keys, vals: State(zip(keys, vals)))  # scaffolding


class Algorithm:  # scaffolding: evox.Algorithm
    pass  # scaffolding


def jit_class(cls):  # scaffolding: evox.jit_class, jitting the public methods with the instance static
    for name in ("setup", "ask", "tell"):  # scaffolding
        if name in cls.__dict__:  # scaffolding
            setattr(cls, name, jax.jit(cls.__dict__[name], static_argnums=0))  # scaffolding
    return cls  # scaffolding


class Mutation:  # scaffolding: the module's PolynomialMutation stand-in (unused by setup)
    pass  # scaffolding


class Crossover:  # scaffolding: the module's crossover stand-in (unused by setup)
    pass  # scaffolding


class sampling:  # scaffolding: evox.operators.sampling namespace
    class UniformSampling:  # scaffolding: Das-Dennis weights for two objectives, returns (w, n)
        def __init__(self, n=None, m=None):  # scaffolding
            self.n, self.m = n, m  # scaffolding

        def __call__(self, key=None):  # scaffolding
            h = self.n - 1  # scaffolding
            w1 = jnp.arange(h + 1) / h  # scaffolding
            w = jnp.stack([w1, 1.0 - w1], axis=1)  # scaffolding
            return w, w.shape[0]  # scaffolding


# evox/algorithms/mo/moeadm2m.py (MOEADM2M constructor and setup)
@jit_class
class MOEADM2M(Algorithm):

    def __init__(
        self,
        lb,
        ub,
        n_objs,
        pop_size,
        k=10,
        max_gen=100,
        mutation_op=None,
        crossover_op=None,
    ):
        self.lb = lb
        self.ub = ub
        self.n_objs = n_objs
        self.dim = lb.shape[0]
        self.k = k
        self.pop_size = pop_size
        self.s = int(self.pop_size / self.k)
        self.max_gen = max_gen

        self.mutation = Mutation()
        self.crossover = Crossover()

        self.sample = sampling.UniformSampling(self.k, self.n_objs)

    def setup(self, key):
        key, subkey1, subkey2 = jax.random.split(key, 3)

        w, k = self.sample(subkey2)
        self.k = int(k)
        self.pop_size = (jnp.ceil(self.pop_size / self.k) * self.k).astype(int)
        self.s = int(self.pop_size / self.k)

        population = (
            jax.random.uniform(subkey1, shape=(self.pop_size, self.dim))
            * (self.ub - self.lb)
            + self.lb
        )

        return State(
            population=population,
            fitness=jnp.zeros((self.pop_size, self.n_objs)),
            next_generation=population,
            w=w,
            key=key,
            gen=0,
        )


try:  # scaffolding
    calls = 0  # scaffolding
    algo = MOEADM2M(lb=jnp.zeros(6), ub=jnp.ones(6), n_objs=2, pop_size=100, k=10)  # scaffolding
    for run in range(2):  # scaffolding: two seeds (StdWorkflow.init -> algorithm.setup)
        state = algo.setup(jax.random.PRNGKey(run))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(setup)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
