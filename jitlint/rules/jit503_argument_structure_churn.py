from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._structure import structure_churns


class ArgumentStructureChurn(Rule):
    """
    ## What it does
    Flags a call of a jitted function that passes one of its parameters in a different pytree
    structure than an earlier call in the same function body (or at module level; calls in
    different functions, such as two tests, need not reach it one after the other): positionally at one call and by keyword
    at another (also when a `functools.partial` / `jax.tree_util.Partial` of the jitted function
    binds it by keyword), or as dicts whose key sets differ without one containing the other
    (the same record with renamed keys; followed through names), or, in a loop, a dict that
    gains a key on every iteration (`d[f"layer{i}"] = w`, `d.update({k: v})` or
    `d = {**d, k: v}` with a key made from the loop counter or the loop's own target) and is
    passed to a jitted call in that loop: unbounded churn. Also, in a loop, an argument that is
    None on some iterations and an array on the others: `None if step == 0 else mask` (a test
    that changes in the loop), or a name set to None before the loop and to a value in it
    (`prev = None` ... `prev = out`). Also a list made empty and filled by a loop that appends
    only when a condition holds (under an `if`, or after a `continue`), passed as it is where
    the call runs again (in a loop, or in a function seen to repeat): each element is a leaf,
    so every new length is a new structure (measured: 4 compiles for 4 lengths; padded to a
    fixed number of rows with a mask, 1).

    ## Why is this bad?
    `jax.jit` keys its cache on the tree structure of `(args, kwargs)`, so each structure is
    traced and compiled again even when every value has the same shape and dtype. Measured on
    jax 0.10.2 (CPU): `f(1, 1)` then `f(1, parameter=1)` compiles twice; `Partial(f,
    parameter=1)(1)` after `f(1, 1)` compiles twice in 3 calls; `f({"a": 1.0})` then
    `f({"b": 1.0})` compiles twice. Passing the parameter the same way (or one key set) compiles
    once. A dict that gains a key per iteration compiles on every iteration: 5 compiles in 5
    iterations for `d[f"layer{i}"] = w`, 4 in 4 for `d.update({f"k{i}": v})` and for
    `d = {**d, f"k{i}": v}`. None on the first iteration and a mask after it compiles twice in
    3 calls, a `prev = None` state twice in 4; None or a mask chosen by a flag fixed for the
    loop, or a neutral mask (`jnp.ones`) on the first iteration, once.

    Bounded structure differences are left alone on purpose: a dict that only adds keys
    between two calls (`{"params": p}` for eval, `{"params": p, "batch_stats": s}` for train),
    `f((a, b))` and `f((a, b, c))` once each, or keys added in a warm-up loop of at most 3
    iterations (a literal `range(3)` or list) compile once per structure (measured: 2 compiles
    for 2 structures, then every later call hits the cache). That cost is fixed, visible in
    the code and usually deliberate, so flagging it would be noise. Also silent: a dict rebuilt
    each iteration with the same keys or assigned again under the same key (1 compile), a dict
    reset inside the loop, keys that may repeat (`d[i % 3]`, `d[keys[i]]`), a dict that is
    also shrunk (`pop`, `del`, `clear`), calls inside a jitted body (inlined). Lists and
    tuples that grow per iteration are JIT501 (a new number of leaves).

    ## Fix safety
    Passing an argument positionally instead of by keyword (or the reverse) does not change what
    the function computes. Renaming dict keys changes what the body reads: rename them in the
    body too, or keep the keys the body expects. For a dict that grows in a loop, creating
    every key before the loop (with placeholder values) or stacking the values into one
    preallocated array changes what the body sees: a body that loops over `d.values()` then
    also sees the placeholders, so mask or count them.
    """

    code = "JIT503"
    calling_context = True
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
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def total_norm(params):
            return sum(jnp.sum(w * w) for w in params.values())

        params = {}
        for i in range(8):
            params[f"layer{i}"] = jnp.ones(3)
            total_norm(params)
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
