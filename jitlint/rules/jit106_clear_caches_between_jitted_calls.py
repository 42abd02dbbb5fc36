from typing import Iterator

import libcst as cst

from jitlint.jaxfacts import CACHE_CLEARING_CALLS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._churn import churns
from jitlint.rules._context import UNKNOWN, calling_context
from jitlint.rules._jitted import jitted_calls


class ClearCachesBetweenJittedCalls(Rule):
    """
    ## What it does
    Flags `jax.clear_caches()` in code that runs again and again (a loop, or a function called
    repeatedly: a training episode, an epoch) when the same code calls jitted functions: in the
    loop around the clear, or in the function that clears (also through a partial that binds
    keywords, `update_fn = partial(update, loss_fn=...)`: egnn-jax, 5 compiles in 5 batches). Not when those calls get a new
    argument shape on every iteration (JIT501): they compile each time anyway; nor in a loop
    that times each pass (`time.perf_counter()` around the call): the cold compile is what it
    measures.

    ## Why is this bad?
    `jax.clear_caches()` drops every compiled program of the process, so the next call of each
    jitted function traces and compiles it again. Called per episode to keep memory down, it
    turns one compile per run into one per episode. Measured on jax 0.10.2 (CPU,
    `fixtures/fresh/clear_caches_every_episode.py`): a DQN-style loop of 4 episodes of 5
    jitted updates, clearing at the end of each episode, compiles the update 4 times; without
    the clear, once (JaxStormer's DQN).

    ## Fix safety
    Drop the call, or clear only where the programs are no longer needed (after the training
    run, between unrelated experiments). If memory grows, look for what keeps arrays alive
    (a list of every step's outputs) or for functions jitted anew each time (JIT101-JIT105).
    """

    code = "JIT106"
    calling_context = True
    name = "clear-caches-between-jitted-calls"
    summary = "jax.clear_caches() in a loop drops the compiled programs: every jitted function compiles again"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def update(w, x):
            return w - 0.1 * x

        w = jnp.zeros(3)
        for episode in range(4):
            for step in range(5):
                w = update(w, jnp.ones(3))
            jax.clear_caches()
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def update(w, x):
            return w - 0.1 * x

        w = jnp.zeros(3)
        for episode in range(4):
            for step in range(5):
                w = update(w, jnp.ones(3))
        jax.clear_caches()
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        model = ctx.model
        clears = [site for name in CACHE_CLEARING_CALLS for site in model.calls_named(name.rpartition(".")[2])
                  if model.qualified_name(site.node.func, site.frame.scope) == name]
        if not clears:
            return
        context = calling_context(ctx)
        for site in clears:
            function = site.frame.enclosing_function()
            if context.runs_traced(site.frame) or not (
                    context.site_repeats(site) or function is not None and context.how(function) == UNKNOWN):
                continue  # (unknown callers: the finding joins the group unknown-callers)
            loops = site.frame.loops_in_scope()
            if loops and context.times_iterations(loops[0]):
                continue  # a loop that times each pass: measuring the cold compile is its point
            repeats_by_function = function is not None and not loops
            called = [jc.call for jc in jitted_calls(ctx)
                      if (frame := model.call_site_of[jc.call].frame).enclosing_function() is function
                      and (repeats_by_function or any(frame.is_inside(loop) or loop is frame.node
                                                      for loop in loops[:1]))]
            # a call whose argument takes a new shape on every iteration compiles anyway (JIT501)
            churning = {id(churn.call.call) for churn in churns(ctx) if churn.kind == "shape"}
            called = [call for call in called if id(call) not in churning]
            if not called:
                continue
            first = called[0]
            name = cst.Module([]).code_for_node(first.func)
            yield Violation(site.node, (
                f"`jax.clear_caches()` runs on every pass of this code and drops every compiled "
                f"program, so the jitted `{name}` called beside it traces and compiles again after "
                f"each clear; clear only where the programs are no longer needed (after the run), "
                f"or not at all"),
                related=((first, f"`{name}` compiles again after each clear"),),
                repeated_at=first, runs_at_repeat=True)
