"""The calling-context analysis (jitlint/rules/_context.py): how each def of a module runs."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from jitlint.rule import FileContext
from jitlint.rules._context import ONCE, REPEATED, TRACED, UNKNOWN, calling_context
from jitlint.semantic import build_model

PROGRAM = """
import jax
import scipy.optimize
import jax.numpy as jnp
from functools import partial


def loss(x):
    return helper(x).sum()


def helper(x):
    return deeper(x) * 2.0


def deeper(x):
    return x + 1.0


step = jax.jit(jax.grad(loss))


def body(carry, x):
    return carry + x, None


def scanned(xs):
    return jax.lax.scan(body, 0.0, xs)


def branch_a(x):
    return x


def branch_b(x):
    return -x


def pick(i, x):
    return jax.lax.switch(i, [branch_a, branch_b], x)


def batched(x):
    return x * 2.0


vbatched = jax.vmap(batched)


class Env:
    def __init__(self):
        self.scale = 2.0

    def step(self, state):
        return integrate(state)

    def reset(self):
        return jnp.zeros(3)


def integrate(state):
    return state * 0.5


class Agent:
    def __init__(self):
        self.update_fn = jax.jit(self.update)

    def update(self, params):
        return params


class Other:
    def act(self, obs):
        return obs


def make_policy(agent):
    return jax.jit(agent.act)  # `act`: the one method of that name in the module


def evaluate(x):
    return x


def train_step(x):
    return evaluate(x)


def run_once():
    return evaluate(1.0)


def public(x):
    return x


def rnn_loss(w):
    return w


def value_loss(w):
    return w


def update(w):
    value_and_grad = jax.value_and_grad(value_loss)
    return value_and_grad(w)


def stepped_loss(w):
    return w


@jax.jit
def jitted_update(w):
    return jax.grad(stepped_loss)(w)


def objective(p):
    return p


class Probe:
    def __init__(self, x):
        self.x = x


class Learner:
    def __init__(self, lr):
        self.lr = lr


def main():
    env = Env()
    jitted_step = jax.jit(env.step)
    state = env.reset()
    for _ in range(3):
        state = jitted_step(state)
        train_step(state)
        jax.grad(rnn_loss)(state)  # jax.grad keeps no program: rnn_loss runs here, eagerly
        update(state)
        jitted_update(state)
        Probe(state)  # a new object on every iteration: its __init__ runs on every iteration
    scipy.optimize.minimize(objective, 0.0)  # runs objective again and again
    for lr in (0.1, 0.01):
        learner = Learner(lr)  # one per run of the inner loop that uses it: built once per run
        for _ in range(3):
            learner.lr


@jax.custom_vjp
def f(x):
    return x


def f_fwd(x):
    return x, None


def f_bwd(res, g):
    return (g,)


f.defvjp(f_fwd, f_bwd)


if __name__ == "__main__":
    main()
"""


@pytest.fixture(scope="module")
def how() -> dict[str, str]:
    module = cst.parse_module(textwrap.dedent(PROGRAM))
    ctx = FileContext("train.py", module, build_model(module))
    context = calling_context(ctx)
    answers = {}
    for function, frame in ctx.model.functions.items():
        owner = frame.scope.node
        prefix = f"{owner.name.value}." if isinstance(owner, cst.ClassDef) else ""
        answers[prefix + function.name.value] = context.how(function)
    return answers


@pytest.mark.parametrize("name", ["loss", "helper", "deeper", "body", "branch_a", "branch_b",
                                  "batched", "Env.step", "integrate", "Agent.update",
                                  "Other.act", "f", "f_fwd", "f_bwd", "stepped_loss"])
def test_traced(name, how):
    """Handed to a jit or transform (bound methods too), or called only from traced code."""
    assert how[name] == TRACED


def test_repeated_when_called_in_a_loop_or_from_a_repeated_function(how):
    assert how["train_step"] == REPEATED
    assert how["evaluate"] == REPEATED  # from train_step (repeated) and run_once


@pytest.mark.parametrize("name", ["rnn_loss", "value_loss", "update"])
def test_differentiated_eagerly_in_a_loop_is_repeated(name, how):
    """``jax.grad(f)(w)`` or ``g = jax.value_and_grad(f)`` then ``g(w)`` outside jit runs
    ``f``'s Python on every call (jaxfacts.RETRACING_TRANSFORMS); under a jit it is traced
    (``stepped_loss``), and a result handed to a jit or never called here too (``loss``,
    ``batched``)."""
    assert how[name] == REPEATED


def test_constructor_of_object_made_on_every_iteration_repeats(how):
    assert how["Probe.__init__"] == REPEATED


def test_function_run_by_a_library_optimizer_repeats(how):
    """jaxfacts.FUNCTION_RUNNING_CALLS: scipy's minimize calls the objective again and again."""
    assert how["objective"] == REPEATED


@pytest.mark.parametrize("name", ["main", "Env.__init__", "Agent.__init__", "Env.reset", "Learner.__init__"])
def test_once(name, how):
    assert how[name] == ONCE


@pytest.mark.parametrize("name", ["public", "scanned", "pick", "make_policy", "run_once"])
def test_unknown_without_callers(name, how):
    assert how[name] == UNKNOWN


HANDED_THROUGH = """
import time


def solve(beta):
    return beta * 2


def fit(beta):
    return beta + 1


def timed(algorithm, *args):
    start = time.perf_counter()
    result = algorithm(*args)
    print(time.perf_counter() - start)
    return result


solve(0.9)
timed(solve, 0.9)
timed(fit, 0.5)
"""


def test_function_passed_to_a_def_that_calls_it_runs_at_that_call():
    """``timed(solve, 0.9)``: ``solve`` runs where ``timed`` calls ``algorithm`` — twice in all
    with the direct call, once for ``fit``, which only ``timed`` runs."""
    module = cst.parse_module(textwrap.dedent(HANDED_THROUGH))
    ctx = FileContext("vfi.py", module, build_model(module))
    context = calling_context(ctx)
    how = {function.name.value: context.how(function) for function in ctx.model.functions}
    assert how["solve"] == REPEATED
    assert how["fit"] == ONCE
