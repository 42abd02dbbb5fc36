from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._consumed import consumed_state_reuses
from jitlint.rules._jitted import TRACING_JITS, jitted_functions, positional_params, static_names
from jitlint.rules._mutated import is_pytree_class
from jitlint.rules._nnx import nnx_params
from jitlint.walk import own_nodes
from jitlint.staticargs import spec_of


class JitWritesArgumentAttribute(Rule):
    """
    ## What it does
    Flags, in a function traced by `jax.jit` (or `pjit`), an assignment to an attribute of a
    traced argument (`state.t = ...`, `self.x += ...` in a jitted method of a registered
    pytree class) when the function does not return that argument. `nnx.jit` is not flagged
    (it carries its modules' updates out), nor Flax NNX objects under `jax.jit` (JIT820).

    ## Why is this bad?
    jit flattens a pytree argument to its leaves and the traced function gets an object rebuilt
    from them: an attribute assigned on it changes that copy, which is dropped when the trace
    ends. The caller's object is unchanged after the call, silently. Measured on jax 0.10.2
    (CPU), jax#15817: `a.set_subsystem(idx, a2)`, a `@jax.jit` method of a registered pytree
    doing `self.x = self.x.at[index].set(sub.x)`, leaves `a.x` as it was (without jit it is
    updated); a jitted `advance(state, dt)` assigning `state.t` likewise
    (`fixtures/stale_values/` prints both results). Also flagged: `state.set(...)` of an
    `eqx.nn.State` argument, which marks the old state consumed by writing to it, when the
    caller passes the old state again (equinox#1071): without jit the reuse raises ValueError
    ("Attempted to use old state"); under `jax.jit` the mark is lost and two calls with the old
    state return the same value (equinox 0.13.8).

    ## Fix safety
    Return the new value (or a new object: `dataclasses.replace(state, t=...)`) and assign it
    at the call site (`a = a.set_subsystem(...)`). Safe: it is what the function was meant to do.
    """

    code = "JIT604"
    name = "jit-writes-argument-attribute"
    summary = "jitted function assigns an attribute of a traced argument; the write is lost"

    INVALID = [
        """
        import dataclasses
        import functools

        import jax
        import jax.numpy as jnp

        @functools.partial(jax.tree_util.register_dataclass, data_fields=["t"], meta_fields=[])
        @dataclasses.dataclass
        class State:
            t: jax.Array

        @jax.jit
        def advance(state, dt):
            state.t = state.t + dt

        state = State(jnp.zeros(()))
        advance(state, 1.0)
        """,
    ]
    VALID = [
        """
        import dataclasses
        import functools

        import jax
        import jax.numpy as jnp

        @functools.partial(jax.tree_util.register_dataclass, data_fields=["t"], meta_fields=[])
        @dataclasses.dataclass
        class State:
            t: jax.Array

        @jax.jit
        def advance(state, dt):
            return dataclasses.replace(state, t=state.t + dt)

        state = State(jnp.zeros(()))
        state = advance(state, 1.0)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        yield from _consumed_state_reused(ctx)
        for func, entry in jitted_functions(ctx).items():
            if not isinstance(func, cst.FunctionDef) or not entry.apps \
                    or any(app.jit.qualname not in TRACING_JITS for app in entry.apps):
                continue
            targets = list(_attribute_targets(func))
            if not targets:
                continue
            params = set(entry.traced_params) - nnx_params(func, ctx.model)
            receiver = _traced_pytree_receiver(ctx, func, entry)
            if receiver is not None:
                params.add(receiver)
            if not params:
                continue
            returned = _returned_names(func)
            bindings = ctx.model.scope_of[func].bindings
            reported: set[str] = set()
            for target in targets:
                owner = target.value.value
                if owner not in params or owner in returned or owner in reported \
                        or len(bindings.get(owner, ())) != 1:
                    continue  # returned, or bound again in the body: not the caller's object
                reported.add(owner)
                what = "a registered pytree" if owner == receiver else "a traced argument"
                yield Violation(target, (
                    f"jitted `{func.name.value}` assigns `{owner}.{target.attr.value}`, but "
                    f"`{owner}` is {what}: jit passes a copy rebuilt from its leaves, so the "
                    f"caller's object is unchanged after the call (the write is lost); return the "
                    f"new value (or a new object) and assign it at the call site"))


def _consumed_state_reused(ctx: FileContext) -> Iterator[Violation]:
    for reuse in consumed_state_reuses(ctx):
        cls = reuse.cls
        where = "on the next iteration of the loop" if reuse.again is reuse.first else "again later"
        yield Violation(reuse.update, (
            f"`{reuse.param}.{reuse.method}` in jitted `{reuse.function.name.value}` marks the old "
            f"{cls} consumed only on the traced copy, and the caller passes the old "
            f"`{reuse.name}` {where}: that call silently starts from the old state and the "
            f"update is lost (without jit, {cls} raises on the reuse); take the returned state "
            f"(`..., {reuse.name} = ...`) and pass that"),
            related=((reuse.first, "the call that consumes it"),
                     *(((reuse.again, "the old state passed again"),) if reuse.again is not reuse.first else ())))


def _traced_pytree_receiver(ctx: FileContext, func: cst.FunctionDef, entry) -> Optional[str]:
    """``self`` of a jitted method of a pytree class (registered in this module) when no jit of
    it makes ``self`` static."""
    frame = ctx.model.functions.get(func)
    params = positional_params(func)
    if frame is None or frame.scope.kind != "class" or not params or func.decorators and any(
            isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod")
            for d in func.decorators):
        return None
    cls = frame.scope.node
    if not isinstance(cls, cst.ClassDef) or not is_pytree_class(ctx, cls):
        return None
    receiver = params[0].name.value
    for app in entry.apps:
        static = static_names(spec_of(app, ctx.model))
        if static is None or receiver in static:
            return None
    return receiver


def _attribute_targets(func: cst.FunctionDef) -> Iterator[cst.Attribute]:
    """``p.attr`` assigned (``p.attr = ...``, ``p.attr += ...``), p a name.  Not ``p.attr[k] =``
    nor ``p.var.value =``: the in-place updates of NNX Variables, JIT820's."""
    for node in own_nodes(func.body):
        if isinstance(node, (cst.AssignTarget, cst.AugAssign)):
            target = node.target
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                yield target


def _returned_names(func: cst.FunctionDef) -> set[str]:
    """Names whose object the function returns (``return self``, ``return state, out``,
    ``return state.replace(...)``); not one only a field of which is returned (``return
    clock.t``: the caller never sees the written object)."""
    names: set[str] = set()
    for node in own_nodes(func.body):
        if isinstance(node, cst.Return) and node.value is not None:
            stack = [node.value]
            while stack:
                current = stack.pop()
                if isinstance(current, cst.Name):
                    names.add(current.value)
                if isinstance(current, cst.Attribute):
                    continue  # a field read: ``clock.t``
                if isinstance(current, cst.Call) and isinstance(current.func, cst.Attribute):
                    stack.append(current.func.value)  # ``state.replace(...)`` returns the object anew
                    stack.extend(arg.value for arg in current.args)
                    continue
                stack.extend(current.children)
    return names
