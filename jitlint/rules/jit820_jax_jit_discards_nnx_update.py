from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._jitted import jitted_calls, jitted_functions
from jitlint.rules._nnx import NNX, PLAIN_JITS, creates_nnx_object, in_place_updates, returned_names


class JaxJitDiscardsNnxUpdate(Rule):
    """
    ## What it does
    Flags `jax.jit` (or pjit) around a function that updates a Flax NNX object passed to it
    in place — `optimizer.update(model, grads)`, `nnx.update(model, state)`,
    `model.count.value += 1` — without returning it. An object read from outside (a global,
    `self.optimizer`) and updated is JIT610's: that raises instead. Files in Flax's Hijax mode
    (`nnx.var_defaults(hijax=True)`), where jax.jit carries such updates out, are skipped.
    The parameter is known to hold an NNX
    object when it is annotated so, differentiated with `nnx.grad`/`nnx.value_and_grad`, or
    passed an `nnx.Module`/`nnx.Optimizer` instance at a call site.

    ## Why is this bad?
    `jax.jit` flattens the NNX objects to arrays and rebuilds copies inside the trace; the
    in-place updates land on the copies and are dropped when the call returns. Measured with
    flax 0.12.8, jax 0.10.2: a `@jax.jit` train step calling `optimizer.update(model, grads)`,
    run 3 times, returns the same loss each time and leaves `optimizer.step` at 0 and the
    weights unchanged: training silently does nothing. The same step under `@nnx.jit` lowers
    the loss every call and counts 3 steps. A step that returns the model but not the
    optimizer keeps training, but with Adam's state reset on every call (the loss oscillates
    0.11, 0.04, 0.11, 0.04 instead of falling).

    ## Fix safety
    Replace `jax.jit` by `nnx.jit` (same arguments; it propagates the updates back), or keep
    `jax.jit` and use the functional API: pass `nnx.split` state in, `nnx.merge` inside, and
    return the new state. Either changes the result (training now happens) and nothing else.
    """

    code = "JIT820"
    name = "jax-jit-discards-nnx-update"
    summary = "jax.jit of a function that updates an NNX object in place; the update is silently discarded"
    severity = "error"

    INVALID = [
        """
        import jax
        from flax import nnx

        @jax.jit
        def train_step(model, optimizer, x, y):
            def loss_fn(model):
                return ((model(x) - y) ** 2).mean()
            loss, grads = nnx.value_and_grad(loss_fn)(model)
            optimizer.update(model, grads)
            return loss
        """,
    ]
    VALID = [
        """
        from flax import nnx

        @nnx.jit
        def train_step(model, optimizer, x, y):
            def loss_fn(model):
                return ((model(x) - y) ** 2).mean()
            loss, grads = nnx.value_and_grad(loss_fn)(model)
            optimizer.update(model, grads)
            return loss
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        if _hijax_mode(ctx):
            return
        from_callers = _nnx_arguments(ctx)
        for func, entry in jitted_functions(ctx).items():
            apps = [app for app in entry.apps if app.jit.qualname in PLAIN_JITS]
            if not apps:
                continue
            jit = apps[0].jit.display
            updated = in_place_updates(func, ctx.model, frozenset(from_callers.get(func, ())))
            kept = returned_names(func, ctx.model)
            lost = [name for name in updated if name not in kept]
            if not lost:
                continue
            yield Violation(apps[0].anchor, (
                f"{jit} of `{func.name.value}`, which updates the NNX {_objects(lost)} in place: "
                f"{jit} traces a copy, so the update is silently discarded when it returns; use "
                f"nnx.jit, or return the updated objects (or nnx.split/nnx.merge state)"))


def _objects(names: list[str]) -> str:
    if len(names) == 1:
        return f"object `{names[0]}`"
    return "objects " + ", ".join(f"`{name}`" for name in names[:-1]) + f" and `{names[-1]}`"


def _hijax_mode(ctx: FileContext) -> bool:
    """``nnx.var_defaults(hijax=True)``, ``nnx.Variable(..., hijax=True)`` or the
    ``flax_hijax_variable`` flag: NNX variables are then JAX mutable refs, and jax.jit
    carries their in-place updates out (Flax's Hijax mode)."""
    for site in ctx.model.calls:
        for arg in site.node.args:
            if arg.keyword is not None and arg.keyword.value == "hijax" \
                    and isinstance(arg.value, cst.Name) and arg.value.value == "True" \
                    and (ctx.model.qualified_name(site.node.func, site.frame.scope) or "").startswith(NNX):
                return True
            if isinstance(arg.value, cst.SimpleString) and "flax_hijax_variable" in arg.value.value:
                return True
    return False


def _nnx_arguments(ctx: FileContext) -> dict[cst.FunctionDef, set[str]]:
    """Per jitted def, the parameters some call site passes an NNX object to."""
    found: dict[cst.FunctionDef, set[str]] = {}
    for jc in jitted_calls(ctx):
        if not isinstance(jc.func, cst.FunctionDef):
            continue
        site = ctx.model.call_site_of[jc.call]
        params = jc.params()
        positional = [a for a in jc.call.args if a.keyword is None and not a.star]
        pairs = [(params[i].name.value, a.value) for i, a in enumerate(positional) if i < len(params)]
        pairs += [(a.keyword.value, a.value) for a in jc.call.args if a.keyword is not None]
        for name, value in pairs:
            if creates_nnx_object(value, site.frame.scope, site.frame, ctx.model):
                found.setdefault(jc.func, set()).add(name)
    return found
