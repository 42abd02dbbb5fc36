"""Shared analysis for JIT401 / JIT403: a Python scalar field of a pytree (an ``equinox.Module``,
a ``flax.struct`` dataclass, a ``register_dataclass`` class) that the code steps from itself
(``self.replace(step=self.step + 1)``, ``dataclasses.replace(s, step=s.step + 1)``,
``State(..., step=s.step + 1)``), carried through a jitted function that a loop feeds its own
result back into (``state = train_step(state, batch)``), or rebuilt that way in the loop that
passes it (``state = State(x=state.x + 1, y=y)`` beside ``y = step(state)``).

Such a field changes on every call.  Where it is static it is part of the cache key: under
``equinox.filter_jit`` every non-array leaf is (an ``int`` field included), under any jit a field
marked static (``jaxfacts.STATIC_FIELD_MARKERS``, ``field(metadata={"static": True})``).  Under
``jax.jit`` an unmarked int field is a traced leaf: no finding.  Whether the field holds a Python
scalar is read from its annotation (``int`` / ``float``); one annotated as an array is traced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.jaxfacts import STATIC_FIELD_MARKERS
from jitlint.rule import FileContext
from jitlint.rules._context import class_methods
from jitlint.rules._jitted import jitted_calls, positional_params, scopes_within
from jitlint.rules._traced import _pytree_dataclasses
from jitlint.semantic import CallSite
from jitlint.walk import iter_nodes

SCALAR_ANNOTATIONS = frozenset({"int", "float"})
REPLACE_FUNCTIONS = frozenset({"dataclasses.replace"})
REPLACE_METHODS = frozenset({"replace"})  # flax.struct's ``self.replace(step=...)``
TREE_AT_FUNCTIONS = frozenset({"equinox.tree_at"})  # ``eqx.tree_at(lambda m: m.count, c, c.count + 1)``


@dataclass(frozen=True)
class CounterField:
    cls: cst.ClassDef
    field: str
    annotation: str  # int | float
    marked_static: bool
    update: cst.Arg  # ``step=self.step + 1``
    call: cst.Call  # the replace or constructor call that makes it
    method: Optional[cst.FunctionDef]  # the method of ``cls`` that makes the update, if one does


@dataclass(frozen=True)
class CounterUse:
    site: CallSite
    arg: cst.Arg  # the argument that carries the instance
    callee: str
    filtering: bool
    counter: CounterField
    # the loop's rebuilding call (``State(x=state.x + 1, ...)``, ``s.next(w)``), when the loop
    # steps it, not the jitted function
    rebuilt: Optional[cst.Call] = None

    @property
    def flagged(self) -> cst.CSTNode:
        """Where the finding goes: the stepping in the loop (the fix goes there; in the loop's
        call of the method that steps it), else the argument fed back."""
        if self.rebuilt is None:
            return self.arg
        return self.counter.update if self.rebuilt is self.counter.call else self.rebuilt

    @property
    def related(self) -> tuple[tuple[cst.CSTNode, str], ...]:
        if self.rebuilt is not None:
            return ((self.arg, f"passed to `{self.callee}`"),)
        return ((self.counter.update, f"`{self.counter.field}` stepped from itself"),)


def counter_uses(ctx: FileContext) -> list[CounterUse]:
    return ctx.shared("counter-field-uses", _uses)


def _scalar_fields(ctx: FileContext) -> dict[str, list[tuple[cst.ClassDef, str, bool]]]:
    """field name -> (class, annotation, marked static) of this module's pytree classes."""
    model = ctx.model
    found: dict[str, list[tuple[cst.ClassDef, str, bool]]] = {}
    for cls in _pytree_dataclasses(ctx):
        scope = model.classes[cls].scope
        body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
        for statement in body:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                        and isinstance(small.annotation.annotation, cst.Name) \
                        and small.annotation.annotation.value in SCALAR_ANNOTATIONS:
                    found.setdefault(small.target.value, []).append(
                        (cls, small.annotation.annotation.value, marked_static(ctx, small.value, scope)))
    return found


def marked_static(ctx: FileContext, value: Optional[cst.BaseExpression], scope) -> bool:
    if not isinstance(value, cst.Call):
        return False
    qualname = ctx.model.qualified_name(value.func, scope)
    for arg in value.args:
        if arg.keyword is None:
            continue
        if qualname in STATIC_FIELD_MARKERS and STATIC_FIELD_MARKERS[qualname] is not None:
            keyword, marked = STATIC_FIELD_MARKERS[qualname]  # type: ignore[misc]
            if arg.keyword.value == keyword and isinstance(arg.value, cst.Name) and arg.value.value == str(marked):
                return True
        if qualname == "dataclasses.field" and arg.keyword.value == "metadata" and isinstance(arg.value, cst.Dict):
            if any(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                   and e.key.evaluated_value == "static" and isinstance(e.value, cst.Name)
                   and e.value.value == "True" for e in arg.value.elements):
                return True
    return qualname in STATIC_FIELD_MARKERS and STATIC_FIELD_MARKERS[qualname] is None


def _steps_itself(arg: cst.Arg, name: Optional[str] = None) -> bool:
    """``step=<arithmetic on something>.step`` (``name``: the field, for an argument without
    a keyword)."""
    value, name = arg.value, name or arg.keyword.value  # type: ignore[union-attr]
    return isinstance(value, cst.BinaryOperation) and any(
        isinstance(node, cst.Attribute) and node.attr.value == name for node in iter_nodes(value))


def _tree_at_field(call: cst.Call, model, scope) -> Optional[tuple[str, cst.Arg]]:
    """(field, the replacement argument) of ``eqx.tree_at(lambda m: m.count, c, c.count + 1)``."""
    if model.qualified_name(call.func, scope) not in TREE_AT_FUNCTIONS or len(call.args) < 3 \
            or any(a.keyword is not None or a.star for a in call.args[:3]):
        return None
    where = call.args[0].value
    if not (isinstance(where, cst.Lambda) and isinstance(where.body, cst.Attribute)
            and isinstance(where.body.value, cst.Name)):
        return None
    return where.body.attr.value, call.args[2]


def _updates(ctx: FileContext) -> list[CounterField]:
    model = ctx.model
    fields = _scalar_fields(ctx)
    if not fields:
        return []
    found = []
    for site in model.calls:
        call, scope = site.node, site.frame.scope
        func = call.func
        tree_at = _tree_at_field(call, model, scope)
        if tree_at is not None:
            field, arg = tree_at
            if field in fields and _steps_itself(arg, field):
                for cls, annotation, marked in fields[field]:
                    found.append(CounterField(cls, field, annotation, marked, arg, call, None))
            continue
        is_replace = (isinstance(func, cst.Attribute) and func.attr.value in REPLACE_METHODS) or \
            model.qualified_name(func, scope) in REPLACE_FUNCTIONS
        classes = None
        if not is_replace:
            binding = model.single_binding(func.value, scope) if isinstance(func, cst.Name) else None
            if binding is None or binding.kind != "class":
                continue
            classes = {binding.node}
        for arg in call.args:
            if arg.keyword is None or arg.keyword.value not in fields or not _steps_itself(arg):
                continue
            for cls, annotation, marked in fields[arg.keyword.value]:
                if classes is not None and cls not in classes:
                    continue
                method = scope.node if isinstance(scope.node, cst.FunctionDef) and \
                    class_methods(cls).get(scope.node.name.value) is scope.node else None
                found.append(CounterField(cls, arg.keyword.value, annotation, marked, arg, call, method))
    return found


def _uses(ctx: FileContext) -> list[CounterUse]:
    counters = _updates(ctx)
    if not counters:
        return []
    model = ctx.model
    uses = []
    for jc in jitted_calls(ctx):
        func = jc.func
        site = model.call_site_of.get(jc.call)
        if not isinstance(func, cst.FunctionDef) or site is None or not site.frame.loops_in_scope():
            continue
        fed = _fed_back(site)
        within = scopes_within(model, func)
        params = {p.name.value for p in positional_params(func)}
        filtering = bool(jc.app.jit.qualname.startswith("equinox."))
        for counter in counters:
            if not (filtering or counter.marked_static):
                continue
            rebuilt = _rebuilt_in_loop(site, counter)
            if not rebuilt and not (fed and _reaches(model, func, within, params, counter)):
                continue
            carried = set(rebuilt) or fed
            arg = next((a for a in jc.call.args if isinstance(a.value, cst.Name) and a.value.value in carried), None)
            if arg is not None:
                at = rebuilt.get(arg.value.value) if rebuilt else None
                uses.append(CounterUse(site, arg, jc.name, filtering, counter, rebuilt=at))
                break
    return uses


def _rebuilt_in_loop(site: CallSite, counter: CounterField) -> dict[str, cst.Call]:
    """The names that the innermost loop around ``site`` assigns the counter's update call to
    (``state = State(x=state.x + 1, y=y)``), or a call of the method that makes it (``s =
    s.next(w)``): each iteration passes a new value of the field."""
    loops = site.frame.loops_in_scope()
    if not loops:
        return {}
    names: dict[str, cst.Call] = {}
    for node in iter_nodes(loops[0]):
        if not isinstance(node, cst.Assign):
            continue
        value = node.value
        if value is counter.call or (
                counter.method is not None and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == counter.method.name.value):
            names.update((t.target.value, value) for t in node.targets if isinstance(t.target, cst.Name))
    return names


def _fed_back(site: CallSite) -> set[str]:
    """Names the call's result is assigned back to, that it also passes (``s = f(s, x)``)."""
    statement = site.statement
    if isinstance(statement, cst.SimpleStatementLine):
        statement = next((small for small in statement.body if isinstance(small, cst.Assign)
                          and small.value is site.node), None)
    if not isinstance(statement, cst.Assign) or statement.value is not site.node:
        return set()
    targets = set()
    for target in statement.targets:
        nodes = [target.target] if isinstance(target.target, cst.Name) else \
            [e.value for e in target.target.elements] if isinstance(target.target, (cst.Tuple, cst.List)) else []
        targets |= {n.value for n in nodes if isinstance(n, cst.Name)}
    passed = {a.value.value for a in site.node.args if isinstance(a.value, cst.Name)}
    return targets & passed


def _reaches(model, func: cst.FunctionDef, within: set[int], params: set[str], counter: CounterField) -> bool:
    """The jitted def makes the update itself, or calls the method that does on a parameter."""
    update_scope = model.scope_of.get(counter.update.value)
    for node in iter_nodes(func):
        if node is counter.update:
            return True
        if counter.method is not None and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                and node.func.attr.value == counter.method.name.value and isinstance(node.func.value, cst.Name) \
                and node.func.value.value in params:
            return True
    return update_scope is not None and id(update_scope) in within


def describe(use: CounterUse) -> str:
    """``state`` goes back into ``train_step`` ... (for messages)."""
    counter = use.counter
    update = " ".join(cst.Module([]).code_for_node(counter.update).split()).rstrip(", ")
    via = f" by `{counter.cls.name.value}.{counter.method.name.value}`" if counter.method is not None else ""
    passed = cst.Module([]).code_for_node(use.arg.value)
    carried = (f"`{passed}` is rebuilt for `{use.callee}` on every iteration" if use.rebuilt is not None else
               f"`{passed}` goes back into `{use.callee}` on every iteration")
    return (f"{carried}, and its `{counter.cls.name.value}` field `{counter.field}` (a Python "
            f"`{counter.annotation}`) is stepped from itself{via} (`{update}`)")
