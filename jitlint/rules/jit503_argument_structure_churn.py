from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._structure import structure_churns


class ArgumentStructureChurn(Rule):
    """
    ## What it does
    Flags a call of a jitted function that passes one of its parameters in a different pytree
    structure than an earlier call in the same module: positionally at one call and by keyword
    at another (also when a `functools.partial` / `jax.tree_util.Partial` of the jitted function
    binds it by keyword), or as dicts whose key sets differ without one containing the other
    (the same record with renamed keys; followed through names).

    ## Why is this bad?
    `jax.jit` keys its cache on the tree structure of `(args, kwargs)`, so each structure is
    traced and compiled again even when every value has the same shape and dtype. Measured on
    jax 0.10.2 (CPU): `f(1, 1)` then `f(1, parameter=1)` compiles twice; `Partial(f,
    parameter=1)(1)` after `f(1, 1)` compiles twice in 3 calls; `f({"a": 1.0})` then
    `f({"b": 1.0})` compiles twice. Passing the parameter the same way (or one key set) compiles
    once. A dict that only adds keys (train and eval variables) is left alone: that is usually
    two programs by design.

    ## Fix safety
    Passing an argument positionally instead of by keyword (or the reverse) does not change what
    the function computes. Renaming dict keys changes what the body reads: rename them in the
    body too, or keep the keys the body expects.
    """

    code = "JIT503"
    name = "argument-structure-churn"
    summary = "a jitted function called with one argument in two pytree structures compiles once per structure"

    INVALID = [
        """
        import jax
        from jax.tree_util import Partial

        @jax.jit
        def add(x, parameter):
            return x + parameter

        add(1.0, 1.0)
        add_one = Partial(add, parameter=1.0)
        add_one(1.0)
        """,
    ]
    VALID = [
        """
        import jax
        from jax.tree_util import Partial

        @jax.jit
        def add(x, parameter):
            return x + parameter

        add(1.0, parameter=1.0)
        add_one = Partial(add, parameter=1.0)
        add_one(1.0)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for churn in structure_churns(ctx):
            yield Violation(churn.node, churn.message)
