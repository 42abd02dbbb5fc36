"""Analysis for JIT601: a jitted function reads an outer variable that changes between calls.

jit runs the Python body once per input signature; names read from outside the function (module
globals, variables of an enclosing function) are baked into the compiled code as constants at
that first trace.  When the program later reassigns or mutates such a variable and calls the
jitted function again, the call silently uses the old value (measured: 1 compile in 5 calls,
outputs frozen at the first value, for a reassigned global float, a mutated dict and a
reassigned global jnp array).

Reported when, after following calls one or two levels up (``main()`` calling both), some
write of the variable (a re-assignment, ``global`` / ``nonlocal`` assignment elsewhere, item or
attribute assignment, ``append`` / ``update`` / ... on a list, dict or set) happens *between*
two calls of the jitted function in the same body, or shares a loop with a call.  Silent for names bound once
(constants), imports, functions and classes, writes that all happen before the first call or
after the last, and jitted functions re-created in the loop that writes (each is traced anew).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext
from jitlint.rules._jitted import (JittedFunction, jitted_calls, jitted_functions, name_loads,
                                   positional_params, scopes_within)
from jitlint.rules._nnx import NNX_JIT, NNX_UPDATE, creates_nnx_object, in_place_updates
from jitlint.semantic import Binding, Frame, Scope, SemanticModel
from jitlint.walk import Walker

MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
    "add", "discard", "sort", "reverse", "__setitem__", "__delitem__",
})
SKIPPED_JITS = frozenset({"flax.linen.jit"})
NNX_UPDATED = "updated in place"
MAX_LIFT = 2


@dataclass(eq=False)
class StaleRead:
    node: cst.Name  # the first read in the jitted body
    function: cst.FunctionDef
    name: str
    how: str  # "reassigned" | "mutated" | NNX_UPDATED (an NNX object updated in place: JIT610)


@dataclass(frozen=True, eq=False)
class Event:
    frame: Frame
    order: int


def stale_reads(ctx: FileContext) -> list[StaleRead]:
    return ctx.shared("stale-reads", _analyse)


def _analyse(ctx: FileContext) -> list[StaleRead]:
    jitted = {f: j for f, j in jitted_functions(ctx).items()
              if not any(app.jit.qualname in SKIPPED_JITS for app in j.apps)}
    if not jitted:
        return []
    walk = _ModuleWalk(ctx.model)
    walk.walk(ctx.module)
    calls_of: dict[cst.FunctionDef, list[Event]] = {}
    for jc in jitted_calls(ctx):
        if isinstance(jc.func, cst.FunctionDef) and jc.func in jitted:
            site = ctx.model.call_site_of[jc.call]
            calls_of.setdefault(jc.func, []).append(Event(site.frame, walk.order[id(jc.call)]))
    for func, entry in jitted.items():
        if any(app.jit.qualname == NNX_JIT for app in entry.apps) and func not in calls_of:
            # jitted_calls follows jax.jit/pjit/equinox only: the direct calls of an nnx.jit def
            binding = next((b for b in ctx.model.functions[func].scope.bindings.get(func.name.value, ())
                            if b.node is func), None)
            for site in ctx.model.calls_to(binding) if binding is not None else ():
                calls_of.setdefault(func, []).append(Event(site.frame, walk.order[id(site.node)]))
    analysis = _Analysis(ctx.model, walk, set(jitted))
    found = []
    for func, entry in jitted.items():
        calls = [e for e in calls_of.get(func, []) if not _inside(e.frame, func)]
        if calls:
            found.extend(analysis.check(entry, calls))
    return found


class _ModuleWalk(Walker):
    """One pass: a pre-order number for every node, and the frame and root name of every
    item/attribute write (``G[k] = v``, ``G.a += 1``, ``del G[k]``)."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.order: dict[int, int] = {}
        self.frame = Frame(model.module, None, model.module_scope)
        self.writes: list[tuple[str, Frame, cst.CSTNode]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.order[id(node)] = len(self.order)
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.For, cst.While,
                             cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            scope = self.model.scope_of.get(node, self.frame.scope)
            self.frame = Frame(node, self.frame, scope)
        elif isinstance(node, cst.AssignTarget):
            self._write(node.target, node)
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
            self._write(node.target, node)
        elif isinstance(node, cst.Del):
            self._write(node.target, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:  # noqa: D102
        if self.frame.node is original_node and self.frame.parent is not None:
            self.frame = self.frame.parent

    def _write(self, target: cst.BaseExpression, node: cst.CSTNode) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._write(element.value, node)
            return
        if isinstance(target, (cst.Subscript, cst.Attribute)):
            root = target.value
            while isinstance(root, (cst.Subscript, cst.Attribute)):
                root = root.value
            if isinstance(root, cst.Name):
                self.writes.append((root.value, self.frame, node))


def _inside(frame: Frame, node: cst.CSTNode) -> bool:
    return frame.is_inside(node)


def _body(frame: Frame) -> cst.CSTNode:
    """The function (or module) whose body holds ``frame``'s point."""
    for f in frame:
        if isinstance(f.node, (cst.FunctionDef, cst.Lambda, cst.Module)):
            return f.node
    return frame.node


class _Analysis:
    def __init__(self, model: SemanticModel, walk: _ModuleWalk, jitted: set[cst.FunctionDef]) -> None:
        self.model = model
        self.walk = walk
        self.jitted = jitted
        scopes = {id(s): s for s in model.scope_of.values()}.values()
        self.redirecting = [s for s in scopes if s.global_names or s.nonlocal_names]
        self.method_calls: dict[str, list] = {}  # name -> its mutating method call sites
        for site in model.calls:
            func = site.node.func
            if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS \
                    and isinstance(func.value, cst.Name):
                self.method_calls.setdefault(func.value.value, []).append(site)
        self.item_writes: dict[str, list[tuple[Frame, cst.CSTNode]]] = {}
        for written, frame, node in walk.writes:
            self.item_writes.setdefault(written, []).append((frame, node))

    def check(self, entry: JittedFunction, calls: list[Event]) -> Iterator[StaleRead]:
        func = entry.func
        own = scopes_within(self.model, func)
        func_scope = self.model.scope_of[func]
        seen: set[str] = set()
        for name, scope in _loads_with_scopes(self.model, func):
            if name.value in seen or name.value in func_scope.global_names \
                    or name.value in func_scope.nonlocal_names:
                continue  # a `global` / `nonlocal` statement: JIT602
            bindings = self.model.lookup(name.value, scope)
            if not bindings or any(id(b.scope) in own for b in bindings):
                continue
            if any(b.kind in ("import", "def", "class") for b in bindings) or _same_recipe(bindings):
                continue
            owner = bindings[0].scope
            if owner.kind == "class":
                continue
            seen.add(name.value)
            how = self._stale(name.value, owner, bindings, entry, calls)
            if how is not None:
                if all(b.kind == "assign" and b.value is not None and b.frame is not None
                       and creates_nnx_object(b.value, b.scope, b.frame, self.model) for b in bindings):
                    how = NNX_UPDATED
                yield StaleRead(name, func, name.value, how)

    # ------------------------------------------------------------------ writes
    def _writes(self, name: str, owner: Scope, bindings: list[Binding]) -> Iterator[tuple[str, Event]]:
        for binding in bindings:
            if binding.frame is not None:
                yield "reassigned", Event(binding.frame, self.walk.order.get(id(binding.node), -1))
        for scope in self.redirecting:
            redirected = (name in scope.global_names and owner is self.model.module_scope) or \
                (name in scope.nonlocal_names and self._resolves_to(name, scope, owner))
            if redirected:
                for binding in scope.bindings.get(name, ()):
                    if binding.frame is not None:
                        yield "reassigned", Event(binding.frame, self.walk.order.get(id(binding.node), -1))
        for frame, node in self.item_writes.get(name, ()):
            if self._same(name, frame.scope, bindings):
                yield "mutated", Event(frame, self.walk.order[id(node)])
        if all(b.kind == "assign" and b.value is not None and b.frame is not None
               and creates_nnx_object(b.value, b.scope, b.frame, self.model) for b in bindings):
            for site in self._nnx_updates(name):
                if self._same(name, site.frame.scope, bindings):
                    yield "mutated", Event(site.frame, self.walk.order[id(site.node)])
            return
        if not all(_is_container(b) for b in bindings):
            return  # obj.update(...) may be pure (optax); only builtin containers are followed
        for site in self.method_calls.get(name, ()):
            if self._same(name, site.frame.scope, bindings):
                yield "mutated", Event(site.frame, self.walk.order[id(site.node)])

    def _nnx_updates(self, name: str) -> Iterator:
        """Calls that update the NNX object ``name`` in place: ``name.update(...)``
        (an optimizer), ``optimizer.update(name, grads)``, ``nnx.update(name, ...)``, and
        passing it to a function that nnx.jit wraps or that updates that parameter itself."""
        for site in self.model.calls:
            func = site.node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "update" \
                    and isinstance(func.value, cst.Name) and func.value.value == name:
                yield site
                continue
            passed = [i for i, a in enumerate(site.node.args)
                      if isinstance(a.value, cst.Name) and a.value.value == name]
            if not passed:
                continue
            if (isinstance(func, cst.Attribute) and func.attr.value == "update") \
                    or self.model.qualified_name(func, site.frame.scope) == NNX_UPDATE:
                yield site
            elif isinstance(func, cst.Name):
                targets = self.model.bindings_at(func, site.frame.scope)
                target = targets[0] if len(targets) == 1 else None
                if target is not None and target.kind == "def" \
                        and self._updates_parameter(target.node, site.node, passed):
                    yield site

    def _updates_parameter(self, func: cst.FunctionDef, call: cst.Call, passed: list[int]) -> bool:
        if any(self.model.qualified_name(d.decorator.func if isinstance(d.decorator, cst.Call)
                                         else d.decorator, self.model.functions[func].scope)
               == NNX_JIT for d in func.decorators):
            return True
        updated = in_place_updates(func, self.model)
        params = positional_params(func)
        for index in passed:
            arg = call.args[index]
            name = arg.keyword.value if arg.keyword is not None else \
                (params[index].name.value if index < len(params) else None)
            if name in updated:
                return True
        return False

    def _resolves_to(self, name: str, scope: Scope, owner: Scope) -> bool:
        current = scope.parent
        while current is not None:
            if name in current.bindings and name not in current.nonlocal_names:
                return current is owner
            current = current.parent
        return False

    def _same(self, name: str, scope: Scope, bindings: list[Binding]) -> bool:
        found = self.model.lookup(name, scope)
        return len(found) == len(bindings) and all(a is b for a, b in zip(found, bindings))

    # ------------------------------------------------------------------ ordering
    def _stale(self, name: str, owner: Scope, bindings: list[Binding], entry: JittedFunction,
               calls: list[Event]) -> Optional[str]:
        definitions = [app.anchor for app in entry.apps]
        stops = tuple(f.node for app in entry.apps for f in app.frame
                      if isinstance(f.node, cst.FunctionDef))
        if owner.kind == "function":
            stops += (owner.node,)
        for how, write in self._writes(name, owner, bindings):
            if any(_inside(write.frame, j) for j in self.jitted):
                continue  # runs at trace time only
            for w in self._lift(write, stops):
                if self._recreated_with(w, definitions):
                    continue
                if self._between_calls(w, calls, stops):
                    return how
        return None

    def _recreated_with(self, write: Event, definitions: list[cst.CSTNode]) -> bool:
        """The jitted function is (re)created in the loop that writes: traced anew each time."""
        for loop in write.frame.loops_in_scope():
            start, end = self.walk.order[id(loop)], self._end(loop)
            if any(start < self.walk.order.get(id(anchor), -1) <= end for anchor in definitions):
                return True
        return False

    def _end(self, node: cst.CSTNode) -> int:
        last = node
        while True:
            children = last.children
            if not children:
                return self.walk.order.get(id(last), 1 << 60)
            last = children[-1]

    def _between_calls(self, write: Event, calls: list[Event], stops: tuple[cst.CSTNode, ...]) -> bool:
        body = _body(write.frame)
        before = after = False
        for call in calls:
            for c in self._lift(call, stops):
                if _body(c.frame) is not body:
                    continue
                shared = {id(loop) for loop in write.frame.loops_in_scope()} & \
                    {id(loop) for loop in c.frame.loops_in_scope()}
                if shared:
                    return True
                before = before or c.order < write.order
                after = after or c.order > write.order
        return before and after

    def _lift(self, event: Event, stops: tuple[cst.CSTNode, ...], depth: int = 0) -> list[Event]:
        """The event itself, and the call sites of the function holding it (recursively), up
        to a function in ``stops``: the owner of a closure variable (each of its runs has its
        own variable) or a function that defines the jitted function (each run makes a new
        one, traced anew)."""
        events = [event]
        if depth >= MAX_LIFT:
            return events
        func = event.frame.enclosing_function()
        if func is None or _body(event.frame) is not func or func in self.jitted or func in stops:
            return events
        outer = self.model.functions.get(func)
        if outer is None or outer.scope.kind == "class":
            return events
        binding = next((b for b in outer.scope.bindings.get(func.name.value, ()) if b.node is func), None)
        if binding is None:
            return events
        for site in self.model.calls_to(binding):
            events.extend(self._lift(Event(site.frame, self.walk.order[id(site.node)]), stops, depth + 1))
        return events


def _same_recipe(bindings: list[Binding]) -> bool:
    """Every binding runs the very same call with no arguments but literals
    (``num_train, idx = train_init()`` before the loop and again in each epoch): the value is
    recomputed, not changed, as far as the code shows; a write that differs
    (``scale = scale * 0.5``, ``lr = schedule(step)``) is what goes stale."""
    texts = set()
    for binding in bindings:
        value = binding.node.value if isinstance(binding.node, cst.Assign) else None
        if binding.kind != "assign" or not isinstance(value, cst.Call) \
                or not all(isinstance(arg.value, (cst.Integer, cst.Float, cst.SimpleString))
                           for arg in value.args):
            return False
        texts.add(cst.Module([]).code_for_node(value))
    return len(texts) == 1


def _is_container(binding: Binding) -> bool:
    """Bound to a list/dict/set display, comprehension or ``list()``/``dict()``/``set()``."""
    value = binding.value
    if binding.kind != "assign" or value is None:
        return False
    if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
        and value.func.value in ("list", "dict", "set")


def _loads_with_scopes(model: SemanticModel, func: cst.FunctionDef) -> list[tuple[cst.Name, Scope]]:
    loads = {id(n) for n in name_loads(func.body)}
    found: list[tuple[cst.Name, Scope]] = []

    class _Walk(cst.CSTVisitor):
        def __init__(self) -> None:
            self.scopes = [model.scope_of[func]]

        def on_visit(self, node: cst.CSTNode) -> bool:
            scope = model.scope_of.get(node)
            if scope is not None:
                self.scopes.append(scope)
            if isinstance(node, cst.Name) and id(node) in loads:
                found.append((node, self.scopes[-1]))
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:  # noqa: D102
            if original_node in model.scope_of and len(self.scopes) > 1:
                self.scopes.pop()

    func.body.visit(_Walk())
    return found
