"""Fix for JIT101 / JIT102 in a loop: build the jitted function once, above the loop.

Handled shapes (in a ``for`` / ``while`` loop, at module or function level):

* ``jax.jit(lambda ...)`` -> ``jitted_lambda = jax.jit(lambda ...)`` above the loop, and the
  name in its place;
* ``jax.jit(step)`` where ``def step`` sits in the loop -> the ``def`` and
  ``jitted_step = jax.jit(step)`` above the loop, and the name in its place;
* ``@jax.jit def step`` in the loop -> the decorated ``def`` above the loop.

Only when it is certainly safe: everything the moved code reads (the lambda or def with its
defaults and decorators, the jit call's other arguments, and what the module functions it calls
read) is bound outside the loop and cannot change while the loop runs: never rebound or mutated
in the loop (assignment, augmented assignment, ``del``, item or attribute assignment, method
call), never written through ``global`` / ``nonlocal`` nor mutated (item, attribute, method
call) by any function of the module, which the loop may call, and never handed to a call in the
loop unless it is a number or string; the def's name has no other binding, and the loop is the
outermost one of its function (or module).  Anything else is left for a human: a hoisted jit
would bake in the first value of what changes (``tests/test_fix_hoist_safety.py`` runs such
programs before and after the fix).
"""

from __future__ import annotations

from typing import Iterator, Optional, Union

import libcst as cst

from jitlint.fixes import Edit
from jitlint.rule import FileContext, Violation
from jitlint.rules._fresh import fresh_jits
from jitlint.semantic import Binding, Scope, SemanticModel

CODES = ("JIT101", "JIT102")
STABLE_KINDS = frozenset({"import", "def", "class"})


def fix(ctx: FileContext, violation: Violation) -> Optional[Edit]:
    fresh = next((f for f in fresh_jits(ctx) if f.app.anchor is violation.node), None)
    if fresh is None or fresh.repetition != "loop":
        return None
    app = fresh.app
    scope = app.frame.scope
    if scope.kind not in ("module", "function"):
        return None
    loops = app.frame.loops_in_scope()
    if not loops or not isinstance(loops[-1], (cst.For, cst.While)):
        return None
    loop = loops[-1]
    model = ctx.model

    if isinstance(app.target, cst.FunctionDef):  # @jax.jit on a def in the loop
        function = app.target
        if not _movable_def(model, function, scope, loop):
            return None
        if not _safe(model, [function], [scope], loop, moved={function}):
            return None
        return Edit(regions=(loop,), remove={function}, insert_before={loop: [function]},
                    description=f"move the jitted `{function.name.value}` above the loop")

    if app.call is None:
        return None
    if isinstance(app.target, cst.Lambda):
        if not _safe(model, [app.call], [scope], loop, moved=set()):
            return None
        name = _fresh_name(ctx.module, "jitted_lambda")
        return _hoist_call(app.call, loop, name, [],
                           f"build `{name}` once above the loop")

    if isinstance(app.target, cst.Name):
        binding = model.single_binding(app.target.value, scope)
        if binding is None or binding.kind != "def" or not isinstance(binding.node, cst.FunctionDef):
            return None
        function = binding.node
        if binding.scope is not scope or not _movable_def(model, function, scope, loop):
            return None
        if not _safe(model, [function, app.call], [scope, scope], loop, moved={function}):
            return None
        name = _fresh_name(ctx.module, f"jitted_{function.name.value}")
        edit = _hoist_call(app.call, loop, name, [function],
                           f"move `{function.name.value}` and its jit above the loop")
        edit.remove.add(function)
        return edit
    return None


def _hoist_call(call: cst.Call, loop: cst.CSTNode, name: str, before: list,
                description: str) -> Edit:
    assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)])
    replacement = cst.Name(name, lpar=call.lpar, rpar=call.rpar)
    return Edit(regions=(loop,), replace={call: replacement},
                insert_before={loop: [*before, assign]}, description=description)


def _movable_def(model: SemanticModel, function: cst.FunctionDef, scope: Scope,
                 loop: cst.CSTNode) -> bool:
    """A def in the loop, in the loop's scope, whose name is bound nowhere else."""
    frame = model.functions.get(function)
    if frame is None or frame.scope is not scope or not frame.is_inside(loop):
        return False
    if function.asynchronous is not None:
        return False
    bindings = scope.bindings.get(function.name.value, [])
    return len(bindings) == 1 and bindings[0].node is function


# ---------------------------------------------------------------------------- safety
MAX_HELPER_DEPTH = 3


def _safe(model: SemanticModel, nodes: list, scopes: list, loop: cst.CSTNode,
          moved: set, writes: Optional["_Writes"] = None) -> bool:
    """Everything ``nodes`` read (and the module functions they call read) is bound outside
    ``loop`` and cannot change while it runs: not rebound or mutated in the loop, not written
    through ``global`` / ``nonlocal`` or mutated (item, attribute, method call) by any function
    of the module (the loop may call it), and not handed to a call in the loop (the callee may
    mutate it).  When in doubt: not safe."""
    writes = writes or _Writes(model, moved)
    inner_scopes = {s for node in nodes for s in _scopes_within(model, node)}
    for node, scope in zip(nodes, scopes):
        for name, read_scope in _reads(model, node, scope):
            bindings = model.lookup(name, read_scope)
            if any(b.scope in inner_scopes for b in bindings):
                continue  # a parameter or local of the moved code itself
            for binding in bindings:
                if binding.node in moved:
                    continue
                if binding.frame is None or binding.frame.is_inside(loop):
                    return False
            if not _stays_unchanged(model, name, bindings, nodes, loop, moved, writes, depth=0):
                return False
    return True


def _stays_unchanged(model: SemanticModel, name: str, bindings: list[Binding], nodes: list,
                     loop: cst.CSTNode, moved: set, writes: "_Writes", depth: int) -> bool:
    if name in writes.attribute_roots:
        return False  # `cfg.scale = ...` / `params["s"] += 1` in some function
    if all(b.kind in STABLE_KINDS for b in bindings):
        return all(_helper_unchanged(model, b, loop, moved, writes, depth) for b in bindings)
    if _changed_in(loop, name, nodes) or name in writes.redirected or name in writes.mutated:
        return False
    return not (_passed_in(loop, name) and not all(_immutable(b) for b in bindings))


def _helper_unchanged(model: SemanticModel, binding: Binding, loop: cst.CSTNode, moved: set,
                      writes: "_Writes", depth: int) -> bool:
    """A module function the moved code calls reads nothing that can change either."""
    if binding.kind != "def" or binding.node in moved or not isinstance(binding.node, cst.FunctionDef):
        return True
    if depth >= MAX_HELPER_DEPTH or binding.node in writes.visiting:
        return depth < MAX_HELPER_DEPTH
    writes.visiting.add(binding.node)
    try:
        inner = set(_scopes_within(model, binding.node))
        for name, read_scope in _reads(model, binding.node, binding.scope):
            found = model.lookup(name, read_scope)
            if not found or any(b.scope in inner for b in found):
                continue
            if not _stays_unchanged(model, name, found, [binding.node], loop, moved, writes, depth + 1):
                return False
        return True
    finally:
        writes.visiting.discard(binding.node)


class _Writes:
    """Names the module's functions may change, by name (conservative on purpose):
    ``redirected`` in a ``global`` / ``nonlocal`` statement; ``attribute_roots`` the root of an
    item or attribute assignment / ``del``; ``mutated`` the receiver of a method call."""

    def __init__(self, model: SemanticModel, moved: set) -> None:
        self.redirected: set[str] = set()
        self.attribute_roots: set[str] = set()
        self.mutated: set[str] = set()
        self.visiting: set[cst.CSTNode] = set()
        skip = {id(node) for node in moved}
        writes = self

        class _Finder(cst.CSTVisitor):
            def __init__(self) -> None:
                self.depth = 0  # inside a function or lambda

            def on_visit(self, node: cst.CSTNode) -> bool:
                if id(node) in skip:
                    return False
                if isinstance(node, (cst.FunctionDef, cst.Lambda)):
                    self.depth += 1
                if isinstance(node, (cst.Global, cst.Nonlocal)):
                    writes.redirected.update(item.name.value for item in node.names)
                elif isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
                    for target in _targets(node.target):
                        if isinstance(target, (cst.Attribute, cst.Subscript)):
                            root = _root(target)
                            if root is not None and self.depth:
                                writes.attribute_roots.add(root)
                elif self.depth and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
                    root = _root(node.func.value)
                    if root is not None:
                        writes.mutated.add(root)
                return True

            def on_leave(self, original_node: cst.CSTNode) -> None:
                if isinstance(original_node, (cst.FunctionDef, cst.Lambda)):
                    self.depth -= 1

        model.module.visit(_Finder())


def _passed_in(loop: cst.CSTNode, name: str) -> bool:
    """Is ``name`` (or ``name.attr`` / ``name[i]``) an argument of a call in ``loop``?"""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Arg(self, arg: cst.Arg) -> None:
            nonlocal found
            value = arg.value
            if isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)) and _root(value) == name:
                found = True

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
