"""Fix for JIT101 / JIT102 in a loop: build the jitted function once, above the loop.

Handled shapes (in a ``for`` / ``while`` loop, at module or function level):

* ``jax.jit(lambda ...)`` -> ``jitted_lambda = jax.jit(lambda ...)`` above the loop, and the
  name in its place;
* ``jax.jit(step)`` where ``def step`` sits in the loop -> the ``def`` and
  ``jitted_step = jax.jit(step)`` above the loop, and the name in its place;
* ``@jax.jit def step`` in the loop -> the decorated ``def`` above the loop.

A hoisted jit bakes in the first value of whatever the moved code reads (the lambda or def
with its defaults and decorators, the jit call's other arguments, and what the module functions
it calls read), so:

* **safe** when all of it is bound outside the loop and cannot change while the loop runs:
  never rebound or mutated in the loop (assignment, augmented assignment, ``del``, item or
  attribute assignment, method call), never written through ``global`` / ``nonlocal`` nor
  mutated (item, attribute, method call) by any function of the module, and never handed to a
  call in the loop unless it is a number or string; the def's name has no other binding, and
  the loop is the outermost one of its function (or module);
* **unsafe** (``--unsafe-fixes``) when the only doubt is code the loop might reach without
  jitlint seeing it: a function of the module writes a name the moved code reads but the loop
  does not call it (by name, directly or through the module's functions), a value is handed to
  a call of a function jitlint cannot see into, or helpers nest deeper than it follows;
* **refused** when it is known or likely to change what the program computes: a name read is
  bound or changed in the loop, or changed by a function the loop calls, or handed in the loop
  to a function that writes (``tests/test_fix_hoist_safety.py`` runs such programs before and
  after the fix, unsafe fixes included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Union

import libcst as cst

from jitlint.fixes import Edit, Refusal
from jitlint.rule import FileContext, Violation
from jitlint.rules._fresh import fresh_jits
from jitlint.semantic import Binding, Scope, SemanticModel

CODES = ("JIT101", "JIT102")
STABLE_KINDS = frozenset({"import", "def", "class"})


def fix(ctx: FileContext, violation: Violation) -> Union[Edit, Refusal]:
    fresh = next((f for f in fresh_jits(ctx) if f.app.anchor is violation.node), None)
    if fresh is None:
        return Refusal("jitlint does not see this jit being rebuilt")
    if fresh.repetition == "loop-operand":
        return Refusal(f"it reads the loop value `{fresh.operand}`: passing it as an argument "
                       f"changes the function's signature, which is left to you")
    if fresh.repetition != "loop":
        return Refusal("it is not rebuilt by a loop of its own function or module: only a jit "
                       "built in a loop is moved (above it)")
    app = fresh.app
    scope = app.frame.scope
    if scope.kind not in ("module", "function"):
        return Refusal("it is not in a function or at module level")
    loops = app.frame.loops_in_scope()
    if not loops or not isinstance(loops[-1], (cst.For, cst.While)):
        return Refusal("the loop is a comprehension: there is no statement to move it above")
    loop = loops[-1]
    model = ctx.model

    if isinstance(app.target, cst.FunctionDef):  # @jax.jit on a def in the loop
        function = app.target
        refusal = _unmovable_def(model, function, scope, loop)
        if refusal is not None:
            return refusal
        return _edit(_safety(model, [function], [scope], loop, moved={function}),
                     regions=(loop,), remove={function}, insert_before={loop: [function]},
                     description=f"move the jitted `{function.name.value}` above the loop")

    if app.call is None:
        return Refusal("the jit is not a call jitlint can move")
    if isinstance(app.target, cst.Lambda):
        name = _fresh_name(ctx.module, "jitted_lambda")
        return _hoist_call(_safety(model, [app.call], [scope], loop, moved=set()), app.call, loop,
                           name, [], f"build `{name}` once above the loop")

    if isinstance(app.target, cst.Name):
        binding = model.single_binding(app.target.value, scope)
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
            return Refusal(f"`{app.target.value}` is not one def jitlint can move")
        function = binding.node
        refusal = Refusal(f"`{function.name.value}` is not defined in the loop's own scope") \
            if binding.scope is not scope else _unmovable_def(model, function, scope, loop)
        if refusal is not None:
            return refusal
        name = _fresh_name(ctx.module, f"jitted_{function.name.value}")
        edit = _hoist_call(_safety(model, [function, app.call], [scope, scope], loop, moved={function}),
                           app.call, loop, name, [function],
                           f"move `{function.name.value}` and its jit above the loop")
        if isinstance(edit, Edit):
            edit.remove.add(function)
        return edit
    return Refusal("only a jit of a lambda or of a def in the loop is moved")


@dataclass(frozen=True)
class _Doubt:
    """Why moving the jit may change what the program computes: ``refuse`` when that is known
    or likely (no fix), else the fix is unsafe."""

    reason: str
    refuse: bool


def _edit(doubt: Optional[_Doubt], **parts) -> Union[Edit, Refusal]:
    if doubt is not None and doubt.refuse:
        return Refusal(doubt.reason)
    return Edit(**parts, unsafe_because=doubt.reason if doubt is not None else None)


def _hoist_call(doubt: Optional[_Doubt], call: cst.Call, loop: cst.CSTNode, name: str,
                before: list, description: str) -> Union[Edit, Refusal]:
    assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)])
    replacement = cst.Name(name, lpar=call.lpar, rpar=call.rpar)
    return _edit(doubt, regions=(loop,), replace={call: replacement},
                 insert_before={loop: [*before, assign]}, description=description)


def _unmovable_def(model: SemanticModel, function: cst.FunctionDef, scope: Scope,
                   loop: cst.CSTNode) -> Optional[Refusal]:
    """None for a def in the loop, in the loop's scope, whose name is bound nowhere else."""
    name = function.name.value
    frame = model.functions.get(function)
    if frame is None or frame.scope is not scope or not frame.is_inside(loop):
        return Refusal(f"`{name}` is not defined in the loop")
    if function.asynchronous is not None:
        return Refusal(f"`{name}` is an async def")
    bindings = scope.bindings.get(name, [])
    if not (len(bindings) == 1 and bindings[0].node is function):
        return Refusal(f"`{name}` is bound more than once in its scope")
    return None


# ---------------------------------------------------------------------------- safety
MAX_HELPER_DEPTH = 3


def _safety(model: SemanticModel, nodes: list, scopes: list, loop: cst.CSTNode,
            moved: set) -> Optional[_Doubt]:
    """None when everything ``nodes`` read (and the module functions they call read) is bound
    outside ``loop`` and cannot change while it runs (see the module's docstring); else the
    first reason to refuse, or failing one, the first doubt that makes the fix unsafe."""
    writes = _Writes(model, moved, loop)
    inner_scopes = {s for node in nodes for s in _scopes_within(model, node)}
    doubts: list[Optional[_Doubt]] = []
    for node, scope in zip(nodes, scopes):
        for name, read_scope in _reads(model, node, scope):
            bindings = model.lookup(name, read_scope)
            if any(b.scope in inner_scopes for b in bindings):
                continue  # a parameter or local of the moved code itself
            for binding in bindings:
                if binding.node in moved:
                    continue
                if binding.frame is None or binding.frame.is_inside(loop):
                    return _Doubt(f"`{name}` is assigned in the loop: a jit built once would keep "
                                  f"its first value", refuse=True)
            doubts.append(_stays_unchanged(model, name, bindings, nodes, loop, moved, writes, depth=0))
            if doubts[-1] is not None and doubts[-1].refuse:
                break
    return _worst(doubts)


def _stays_unchanged(model: SemanticModel, name: str, bindings: list[Binding], nodes: list,
                     loop: cst.CSTNode, moved: set, writes: "_Writes", depth: int) -> Optional[_Doubt]:
    doubts = [writes.doubt(name, writes.attribute_roots)]  # `cfg.scale = ...` in some function
    if all(b.kind in STABLE_KINDS for b in bindings):
        doubts += [_helper_unchanged(model, b, loop, moved, writes, depth) for b in bindings]
        return _worst(doubts)
    if _changed_in(loop, name, nodes):
        return _Doubt(f"`{name}` changes in the loop: a jit built once would keep its first "
                      f"value", refuse=True)
    doubts += [writes.doubt(name, writes.redirected), writes.doubt(name, writes.mutated)]
    callees = set() if all(_immutable(b) for b in bindings) else _receivers(loop, name)
    writers = sorted(callee for callee in callees if writes.called_from(callee) & writes.writers)
    if writers:
        doubts.append(_Doubt(f"`{name}` is handed to `{writers[0]}()` in the loop, which changes "
                             f"what it is given or other state", refuse=True))
    elif callees:
        doubts.append(_Doubt(f"`{name}` is handed to `{sorted(callees)[0]}()` in the loop, which "
                             f"might change it", refuse=False))
    return _worst(doubts)


def _worst(doubts: list[Optional[_Doubt]]) -> Optional[_Doubt]:
    """The first reason to refuse, else the first doubt, else None."""
    return next((d for d in doubts if d is not None and d.refuse), None) or \
        next((d for d in doubts if d is not None), None)


def _helper_unchanged(model: SemanticModel, binding: Binding, loop: cst.CSTNode, moved: set,
                      writes: "_Writes", depth: int) -> Optional[_Doubt]:
    """A module function the moved code calls reads nothing that can change either."""
    if binding.kind != "def" or binding.node in moved or not isinstance(binding.node, cst.FunctionDef):
        return None
    if binding.node in writes.visiting:
        return None
    if depth >= MAX_HELPER_DEPTH:
        return _Doubt(f"the functions it calls nest deeper than {MAX_HELPER_DEPTH} levels, "
                      f"which jitlint does not follow", refuse=False)
    writes.visiting.add(binding.node)
    try:
        inner = set(_scopes_within(model, binding.node))
        doubts = []
        for name, read_scope in _reads(model, binding.node, binding.scope):
            found = model.lookup(name, read_scope)
            if not found or any(b.scope in inner for b in found):
                continue
            doubts.append(_stays_unchanged(model, name, found, [binding.node], loop, moved,
                                           writes, depth + 1))
            if doubts[-1] is not None and doubts[-1].refuse:
                break
        return _worst(doubts)
    finally:
        writes.visiting.discard(binding.node)


class _Writes:
    """Names the module's functions may change, by name (conservative on purpose), each with
    the names of the functions that do it: ``redirected`` in a ``global`` / ``nonlocal``
    statement; ``attribute_roots`` the root of an item or attribute assignment / ``del``;
    ``mutated`` the receiver of a method call.  ``writers`` are the functions that do any of
    it; ``calls`` what each function calls, by name; ``in_loop`` what the loop calls, by name,
    with what those call in turn."""

    def __init__(self, model: SemanticModel, moved: set, loop: cst.CSTNode) -> None:
        self.redirected: dict[str, set[str]] = {}
        self.attribute_roots: dict[str, set[str]] = {}
        self.mutated: dict[str, set[str]] = {}
        self.writers: set[str] = set()
        self.calls: dict[str, set[str]] = {}
        self.visiting: set[cst.CSTNode] = set()
        skip = {id(node) for node in moved}
        writes = self

        class _Finder(cst.CSTVisitor):
            def __init__(self) -> None:
                self.functions: list[str] = []  # the enclosing defs (a lambda counts as its def's)

            def on_visit(self, node: cst.CSTNode) -> bool:
                if id(node) in skip:
                    return False
                if isinstance(node, cst.FunctionDef):
                    self.functions.append(node.name.value)
                elif isinstance(node, cst.Lambda):
                    self.functions.append(self.functions[-1] if self.functions else "<lambda>")
                if not self.functions:
                    return True
                function = self.functions[-1]
                if isinstance(node, (cst.Global, cst.Nonlocal)):
                    for item in node.names:
                        writes._add(writes.redirected, item.name.value, function)
                elif isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
                    for target in _targets(node.target):
                        if isinstance(target, (cst.Attribute, cst.Subscript)):
                            root = _root(target)
                            if root is not None:
                                writes._add(writes.attribute_roots, root, function)
                elif isinstance(node, cst.Call):
                    callee = _callee_name(node)
                    if callee is not None:
                        writes.calls.setdefault(function, set()).add(callee)
                    if isinstance(node.func, cst.Attribute):
                        root = _root(node.func.value)
                        if root is not None:
                            writes._add(writes.mutated, root, function)
                return True

            def on_leave(self, original_node: cst.CSTNode) -> None:
                if isinstance(original_node, (cst.FunctionDef, cst.Lambda)) \
                        and id(original_node) not in skip:
                    self.functions.pop()

        model.module.visit(_Finder())
        in_loop: set[str] = set()

        class _Calls(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                callee = _callee_name(node)
                if callee is not None:
                    in_loop.add(callee)

        loop.visit(_Calls())
        self.in_loop = self._closure(in_loop)

    def _add(self, table: dict[str, set[str]], name: str, function: str) -> None:
        table.setdefault(name, set()).add(function)
        self.writers.add(function)

    def _closure(self, names: set[str]) -> set[str]:
        found, todo = set(names), list(names)
        while todo:
            for callee in self.calls.get(todo.pop(), ()):
                if callee not in found:
                    found.add(callee)
                    todo.append(callee)
        return found

    def called_from(self, function: str) -> set[str]:
        """``function`` and what it calls, by name, as deep as the module's functions go."""
        return self._closure({function})

    def doubt(self, name: str, table: dict[str, set[str]]) -> Optional[_Doubt]:
        """Refused when a function that writes ``name`` is called from the loop; unsafe when
        one exists that the loop does not call by name (it may reach it some other way)."""
        writers = table.get(name)
        if not writers:
            return None
        called = sorted(writers & self.in_loop)
        if called:
            return _Doubt(f"`{name}` is changed by `{called[0]}()`, which the loop calls: a jit "
                          f"built once would keep its first value", refuse=True)
        return _Doubt(f"`{name}` is changed by `{sorted(writers)[0]}()`, which the loop does not "
                      f"call by name but might reach", refuse=False)


def _callee_name(call: cst.Call) -> Optional[str]:
    """``f(...)`` -> f, ``obj.method(...)`` -> method."""
    if isinstance(call.func, cst.Name):
        return call.func.value
    if isinstance(call.func, cst.Attribute):
        return call.func.attr.value
    return None


def _receivers(loop: cst.CSTNode, name: str) -> set[str]:
    """The callees (by name; ``?`` when unnamed) of the calls in ``loop`` that are handed
    ``name`` (or ``name.attr`` / ``name[i]``) as an argument."""
    found: set[str] = set()

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            for arg in call.args:
                value = arg.value
                if isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)) and _root(value) == name:
                    found.add(_callee_name(call) or "?")

    loop.visit(_Finder())
    return found


def _immutable(binding: Binding) -> bool:
    """Bound to a number, string, bool or None: a callee cannot change it in place."""
    value = binding.value
    if binding.kind != "assign" or value is None:
        return False
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    return isinstance(value, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)) or \
        (isinstance(value, cst.Name) and value.value in ("True", "False", "None"))


def _root(expr: cst.BaseExpression) -> Optional[str]:
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        expr = expr.value
    return expr.value if isinstance(expr, cst.Name) else None


def _targets(expr: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    if isinstance(expr, (cst.Tuple, cst.List)):
        for element in expr.elements:
            yield from _targets(element.value)
    elif isinstance(expr, cst.StarredElement):
        yield from _targets(expr.value)
    else:
        yield expr


def _scopes_within(model: SemanticModel, node: cst.CSTNode) -> Iterator[Scope]:
    found = []

    class _Finder(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            scope = model.scope_of.get(child)
            if scope is not None and child is not model.module:
                found.append(scope)
            return True

    node.visit(_Finder())
    return iter(found)


def _reads(model: SemanticModel, node: cst.CSTNode, scope: Scope) -> list[tuple[str, Scope]]:
    """(name, scope it is read in) for every variable read in ``node``, scoped as Python does:
    defaults, decorators and annotations in the enclosing scope, bodies in their own."""
    reads: list[tuple[str, Scope]] = []

    class _Reader(cst.CSTVisitor):
        def __init__(self) -> None:
            self.stack = [scope]

        def _inner(self, owner: cst.CSTNode, body: Union[cst.CSTNode, list]) -> None:
            inner = model.scope_of.get(owner)
            self.stack.append(inner if inner is not None else self.stack[-1])
            for part in body if isinstance(body, list) else [body]:
                part.visit(self)
            self.stack.pop()

        def visit_Name(self, name: cst.Name) -> None:
            reads.append((name.value, self.stack[-1]))

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            attribute.value.visit(self)
            return False

        def visit_Arg(self, arg: cst.Arg) -> bool:
            arg.value.visit(self)
            return False

        def visit_Param(self, param: cst.Param) -> bool:
            for part in (param.annotation, param.default):
                if part is not None:
                    part.visit(self)
            return False

        def visit_Lambda(self, lam: cst.Lambda) -> bool:
            lam.params.visit(self)
            self._inner(lam, lam.body)
            return False

        def visit_FunctionDef(self, function: cst.FunctionDef) -> bool:
            for decorator in function.decorators:
                decorator.visit(self)
            function.params.visit(self)
            if function.returns is not None:
                function.returns.visit(self)
            self._inner(function, function.body)
            return False

        def visit_ClassDef(self, cls: cst.ClassDef) -> bool:
            for part in (*cls.decorators, *cls.bases, *cls.keywords):
                part.visit(self)
            self._inner(cls, cls.body)
            return False

        def _comprehension(self, comp, elements: list) -> bool:
            comp.for_in.iter.visit(self)
            inner = model.scope_of.get(comp)
            self.stack.append(inner if inner is not None else self.stack[-1])
            part: Optional[cst.CompFor] = comp.for_in
            first = True
            while part is not None:
                if not first:
                    part.iter.visit(self)
                for condition in part.ifs:
                    condition.visit(self)
                first = False
                part = part.inner_for_in
            for element in elements:
                element.visit(self)
            self.stack.pop()
            return False

        def visit_ListComp(self, comp: cst.ListComp) -> bool:
            return self._comprehension(comp, [comp.elt])

        def visit_SetComp(self, comp: cst.SetComp) -> bool:
            return self._comprehension(comp, [comp.elt])

        def visit_GeneratorExp(self, comp: cst.GeneratorExp) -> bool:
            return self._comprehension(comp, [comp.elt])

        def visit_DictComp(self, comp: cst.DictComp) -> bool:
            return self._comprehension(comp, [comp.key, comp.value])

    node.visit(_Reader())
    return reads


def _changed_in(loop: cst.CSTNode, name: str, excluded: list) -> bool:
    """Is ``name`` (re)bound or mutated anywhere in ``loop`` outside ``excluded``?  By name,
    whatever scope: conservative on purpose."""
    changed = False
    skip = {id(node) for node in excluded}

    class _Finder(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal changed
            if id(node) in skip or changed:
                return False
            written: list = []
            if isinstance(node, cst.AssignTarget):
                written = list(_targets(node.target))
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
                written = list(_targets(node.target))
            elif isinstance(node, cst.Del):
                written = list(_targets(node.target))
            elif isinstance(node, (cst.For, cst.CompFor)):
                written = list(_targets(node.target))
            elif isinstance(node, cst.NamedExpr):
                written = [node.target]
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
                written = [node.func.value]  # obj.append(...), cfg.update(...)
            elif isinstance(node, (cst.Global, cst.Nonlocal)):
                changed = any(item.name.value == name for item in node.names)
            if any(_root(t) == name for t in written):
                changed = True
            return not changed

    loop.visit(_Finder())
    return changed


def _fresh_name(module: cst.Module, base: str) -> str:
    used: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            used.add(node.value)

    module.visit(_Names())
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}_{n}"
    return name
