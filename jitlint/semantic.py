"""A small semantic model of one module: scopes, bindings and the context of each call.

libcst's ScopeProvider + QualifiedNameProvider answer the same questions but cost ~60% of a
naive run on the JAX corpus (see docs/performance.md).  The rules only need to know what a
name is bound to and where a call sits (which function, which loops, which ``if`` guards), so
one visitor pass builds exactly that and nothing more.

Resolution follows Python's rules: a name is local to the function that binds it (parameters,
assignments, ``def``, ``import``, ``for`` targets ...), class bodies are not visible from the
methods inside them, ``global``/``nonlocal`` redirect a name, comprehensions and lambdas are
scopes of their own.  The model is flow-insensitive: a name bound twice in one scope resolves
to a qualified name only when every binding agrees, so an ambiguous name never looks like jit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Iterator, Optional, Union

import libcst as cst

from jitlint.jaxfacts import PUBLIC_SPELLINGS
from jitlint.walk import Walker, children

ScopeKind = str  # "module" | "class" | "function" | "lambda" | "comprehension"

FunctionNode = Union[cst.FunctionDef, cst.Lambda]
LoopNode = Union[cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp]


@dataclass(eq=False)
class Binding:
    """One place where ``name`` is bound in ``scope``."""

    name: str
    kind: str  # import | def | class | assign | param | loop-target | other
    scope: "Scope"
    node: cst.CSTNode
    value: Optional[cst.BaseExpression] = None  # right-hand side of a simple ``name = value``
    imported: Optional[str] = None  # qualified name for imports: "jax.jit", "jax", ".mod.f"
    frame: Optional["Frame"] = None  # where the binding statement sits


@dataclass(eq=False)
class Scope:
    kind: ScopeKind
    node: cst.CSTNode
    parent: Optional["Scope"]
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)

    def add(self, binding: Binding) -> None:
        self.bindings.setdefault(binding.name, []).append(binding)


@dataclass(frozen=True, eq=False)
class Frame:
    """An enclosing construct of a node, innermost first; a persistent linked list.

    ``node`` is a FunctionDef, Lambda, ClassDef, loop (For/While/comprehension) or If; for an
    ``If``, ``in_test`` says whether we are inside its condition rather than its body.
    """

    node: cst.CSTNode
    parent: Optional["Frame"]
    scope: Scope

    def __iter__(self) -> Iterator["Frame"]:
        frame: Optional[Frame] = self
        while frame is not None:
            yield frame
            frame = frame.parent

    def loops_in_scope(self) -> list[cst.CSTNode]:
        """Loops between this point and the innermost function/class/module boundary."""
        loops = []
        for frame in self:
            if isinstance(frame.node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                break
            if isinstance(frame.node, LOOP_TYPES):
                loops.append(frame.node)
        return loops

    def enclosing_function(self) -> Optional[cst.FunctionDef]:
        for frame in self:
            if isinstance(frame.node, cst.FunctionDef):
                return frame.node
            if isinstance(frame.node, cst.ClassDef):
                return None
        return None

    def ifs_in_scope(self) -> list[cst.If]:
        ifs = []
        for frame in self:
            if isinstance(frame.node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                break
            if isinstance(frame.node, cst.If):
                ifs.append(frame.node)
        return ifs

    def is_inside(self, node: cst.CSTNode) -> bool:
        return any(frame.node is node for frame in self)


LOOP_TYPES = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_LOOP_TYPE_SET = frozenset(LOOP_TYPES)  # node types are concrete: a set lookup, not isinstance
COMPREHENSION_TYPES = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


@dataclass(eq=False)
class CallSite:
    node: cst.Call
    frame: Frame
    called_immediately: bool = False  # this call's result is itself called: ``f(...)(...)``
    statement: Optional[cst.CSTNode] = None  # the simple statement holding the call


@dataclass(eq=False)
class SemanticModel:
    module: cst.Module
    module_scope: Scope
    calls: list[CallSite]
    functions: dict[cst.FunctionDef, Frame]  # each def -> the frame *around* it
    classes: dict[cst.ClassDef, Frame]
    scope_of: dict[cst.CSTNode, Scope]  # FunctionDef/Lambda/ClassDef/comprehension -> its scope
    call_site_of: dict[cst.Call, CallSite]
    parent_statement: dict[cst.CSTNode, cst.CSTNode]  # assignment/return statements by value node
    returns: list[tuple[cst.Return, Frame]]
    # Writes through an item or attribute of a name (``G[k] = v``, ``G.a += 1``, ``del G[k]``):
    # (the name at the root, the frame of the write, the AssignTarget or statement)
    item_writes: list[tuple[str, Frame, cst.CSTNode]]
    module_name: Optional[str] = None  # dotted name when known (package layout)

    # ------------------------------------------------------------------ name resolution
    def lookup(self, name: str, scope: Scope) -> list[Binding]:
        """The bindings ``name`` may refer to when read in ``scope`` (empty: builtin/unknown)."""
        if name in scope.global_names:
            return self.module_scope.bindings.get(name, [])
        current: Optional[Scope] = scope
        first = True
        while current is not None:
            # Class bodies are only visible to code directly inside them.
            if current.kind != "class" or first:
                if name in current.bindings and name not in current.nonlocal_names:
                    return current.bindings[name]
            first = False
            current = current.parent
        return []

    def global_bindings(self, name: str) -> list[Binding]:
        """Every binding of the module-level ``name``: at module level, and in the functions
        that declare it ``global`` (``if TABLE is None: TABLE = np.array(...)``)."""
        found = list(self.module_scope.bindings.get(name, []))
        for scope in self._global_writers.get(name, ()):
            found.extend(scope.bindings.get(name, []))
        return found

    @cached_property
    def construction_helpers(self) -> frozenset[cst.FunctionDef]:
        """Methods that only their class's ``__init__`` calls, as ``self.setup_model()``: their
        attribute writes build the instance, as ``__init__``'s own do."""
        found = set()
        for cls in self.classes:
            body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
            methods = {s.name.value: s for s in body if isinstance(s, cst.FunctionDef)}
            init = methods.get("__init__")
            for name, method in methods.items():
                sites = self.calls_named(name)
                if init is None or method is init or not sites:
                    continue
                if all(site.frame.enclosing_function() is init and isinstance(site.node.func, cst.Attribute)
                       and isinstance(site.node.func.value, cst.Name) and site.node.func.value.value == "self"
                       for site in sites):
                    found.add(method)
        return frozenset(found)

    @cached_property
    def _global_writers(self) -> dict[str, list[Scope]]:
        writers: dict[str, list[Scope]] = {}
        for scope in {id(s): s for s in self.scope_of.values()}.values():
            for name in scope.global_names:
                writers.setdefault(name, []).append(scope)
        return writers

    def qualified_name(self, expr: cst.BaseExpression, scope: Scope, _depth: int = 0) -> Optional[str]:
        """The dotted name an expression refers to, through imports and simple aliases.

        ``jx.jit`` after ``import jax as jx`` -> ``"jax.jit"``; ``compile_fn`` after
        ``compile_fn = jax.jit`` -> ``"jax.jit"``; a parameter or an ambiguous name -> None.
        """
        if _depth > 8:
            return None
        if isinstance(expr, cst.Name):
            bindings = self.bindings_at(expr, scope)
            if not bindings:
                return None
            names = {self._binding_qualname(b, _depth) for b in bindings}
            if len(names) == 1:
                return names.pop()
            return None
        if isinstance(expr, cst.Attribute):
            base = self.qualified_name(expr.value, scope, _depth + 1)
            return PUBLIC_SPELLINGS.get(f"{base}.{expr.attr.value}", f"{base}.{expr.attr.value}") if base else None
        return None

    def _binding_qualname(self, binding: Binding, depth: int) -> Optional[str]:
        if binding.kind == "import":
            return PUBLIC_SPELLINGS.get(binding.imported, binding.imported)  # type: ignore[arg-type]
        if binding.kind == "assign" and binding.value is not None:
            if isinstance(binding.value, (cst.Name, cst.Attribute)):
                return self.qualified_name(binding.value, binding.scope, depth + 1)
        return None

    def value_origin(self, expr: cst.BaseExpression, scope: Scope, frame: Frame,
                     _depth: int = 0) -> Optional[tuple[cst.CSTNode, Scope, Frame]]:
        """Where the value of ``expr`` is created, with the scope and frame it is created in:
        the expression itself, or for a name bound exactly once, its ``def`` or the right-hand
        side of its assignment (followed through ``g = f`` aliases).  None when unknown."""
        if not isinstance(expr, cst.Name):
            return expr, scope, frame
        if _depth > 4:
            return None
        bindings = self.bindings_at(expr, scope)
        binding = bindings[0] if len(bindings) == 1 else None
        if binding is None or binding.frame is None:
            return None
        if binding.kind == "def":
            return binding.node, binding.scope, binding.frame
        if binding.kind == "assign" and binding.value is not None:
            return self.value_origin(binding.value, binding.scope, binding.frame, _depth + 1)
        return None

    def through_aliases(self, binding: Optional[Binding], depth: int = 3) -> Optional[Binding]:
        """The binding a chain of plain renames leads to (``ljE = potential_fn`` -> the def
        ``potential_fn``): each name bound once, followed ``depth`` steps at most."""
        for _ in range(depth):
            if binding is None or binding.kind != "assign" or not isinstance(binding.value, cst.Name):
                break
            binding = self.single_binding(binding.value.value, binding.scope)
        return binding

    def single_binding(self, name: str, scope: Scope) -> Optional[Binding]:
        bindings = self.lookup(name, scope)
        return bindings[0] if len(bindings) == 1 else None

    def bindings_at(self, name: cst.Name, scope: Scope) -> list[Binding]:
        """The bindings a read of ``name`` (a Name node of this module, read in ``scope``) may
        refer to, in the order code runs: a body runs top to bottom, so when the name is bound
        again in the same scope, a read sees the last binding before it that is bound
        unconditionally (at the scope's own level), with any conditional binding after that
        one.  A notebook's ``def f(x)`` redefined later as ``def f(x, n)`` resolves to the
        second below it.  Reads from inner functions (run later), reads inside a loop that
        rebinds the name further down, and reads before every binding keep ``lookup``'s
        flow-insensitive answer."""
        bindings = self.lookup(name.value, scope)
        if len(bindings) < 2 or any(b.scope is not scope for b in bindings):
            return bindings
        spans, loops, elses = self._layout
        read = spans.get(id(name))
        if read is None:
            return bindings
        before = sorted((b for b in bindings if id(b.node) in spans and spans[id(b.node)][1] < read[0]),
                        key=lambda b: spans[id(b.node)][1])
        if not before:
            return bindings
        later = [spans[id(b.node)] for b in bindings
                 if id(b.node) in spans and spans[id(b.node)][1] > read[0]]
        for loop in loops:
            if loop[0] < read[0] < loop[1] and any(loop[0] < s[0] < loop[1] for s in later):
                return bindings  # the loop's next iteration may see a later binding
        live: list[Binding] = []
        for binding in reversed(before):
            live.append(binding)
            start = spans[id(binding.node)][0]
            if binding.frame is not None and binding.frame.node is scope.node \
                    and not any(e[0] < start < e[1] for e in elses):
                break
        return live[::-1]

    def span(self, node: cst.CSTNode) -> Optional[tuple[int, int]]:
        """(when entered, when left) of a meaningful node of the module in source order (None
        for whitespace and punctuation): a node comes before another when it is left before
        that one is entered, and lies inside one when it is entered within that one's span."""
        return self._layout[0].get(id(node))

    def encloses(self, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        """``inner`` lies within ``outer`` (or is it), by their spans; False when either has none."""
        outer_span, inner_span = self.span(outer), self.span(inner)
        return outer_span is not None and inner_span is not None \
            and outer_span[0] <= inner_span[0] and inner_span[1] <= outer_span[1]

    def order(self, node: cst.CSTNode) -> int:
        """When a node is entered in source order (-1 for one outside the module's walk)."""
        span = self._layout[0].get(id(node))
        return -1 if span is None else span[0]

    @cached_property
    def _layout(self) -> tuple[dict[int, tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
        """(id of every meaningful node -> its span, the spans of the loops, the spans of the
        ``else:`` blocks, which the frames do not mark conditional), from one walk.
        A span is (2 * the node's pre-order index, 2 * the pre-order index of the last node
        under it + 1): no leave step per node; the module holds the nodes, so ids are stable."""
        nodes: list[cst.CSTNode] = []
        parents: list[int] = []
        stack: list[tuple[cst.CSTNode, int]] = [(self.module, -1)]
        while stack:
            node, parent = stack.pop()
            index = len(nodes)
            nodes.append(node)
            parents.append(parent)
            below = children(node)
            if below:
                stack.extend([(child, index) for child in reversed(below)])
        last = list(range(len(nodes)))
        for index in range(len(nodes) - 1, 0, -1):  # a node comes after its parent
            parent = parents[index]
            if last[index] > last[parent]:
                last[parent] = last[index]
        spans = {id(node): (2 * index, 2 * last[index] + 1) for index, node in enumerate(nodes)}
        return spans, [spans[id(node)] for node in nodes if type(node) in _LOOP_TYPE_SET], \
            [spans[id(node)] for node in nodes if isinstance(node, cst.Else)]

    def calls_to(self, binding: Binding, depth: int = 0) -> Iterator[CallSite]:
        """Call sites ``name(...)`` whose callee name resolves to exactly ``binding`` (where the
        name is bound again in the same scope, the binding live at the call: ``bindings_at``),
        also through names bound once to it (``delta_european = delta_vanilla``)."""
        for site in self.calls_named(binding.name):
            if isinstance(site.node.func, cst.Name):
                bindings = self.bindings_at(site.node.func, site.frame.scope)
                if len(bindings) == 1 and bindings[0] is binding:
                    yield site
                elif depth > 0 and any(b is binding for b in bindings) and all(
                        id(b) in self._alias_bindings for b in bindings):
                    # ``g = f_fast if ... else`` / ``g = f_slow``, then ``g(x)``: a call of each
                    yield site
            elif self._namespace_member(site.node.func, site.frame.scope) is binding:
                yield site  # ``U.generate(...)`` of ``U = types.SimpleNamespace(generate=generate)``
        if depth < 3:
            for alias in self._aliases.get(id(binding), ()):
                yield from self.calls_to(alias, depth + 1)

    def _namespace_member(self, func: cst.BaseExpression, scope: Scope) -> Optional[Binding]:
        """The binding ``ns.name`` names when ``ns`` is bound once to
        ``types.SimpleNamespace(name=<a name>)`` (a registry of functions standing for a module)."""
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return None
        holder = self.single_binding(func.value.value, scope)
        value = holder.value if holder is not None and holder.kind == "assign" else None
        if not isinstance(value, cst.Call) or self.qualified_name(value.func, holder.scope) != "types.SimpleNamespace":
            return None
        member = next((arg.value for arg in value.args
                       if arg.keyword is not None and arg.keyword.value == func.attr.value), None)
        return self.single_binding(member.value, holder.scope) if isinstance(member, cst.Name) else None

    @cached_property
    def _aliases(self) -> dict[int, list[Binding]]:
        """id(binding) -> the bindings ``alias = name`` that rename it (each bound once)."""
        found: dict[int, list[Binding]] = {}
        for scope in {id(s): s for s in self.scope_of.values()}.values():
            for name, bindings in scope.bindings.items():
                # each binding of the name renames one (``sample = sample_f`` in one branch,
                # ``sample = sample_t`` in the other): a call through it may run either
                if not bindings or not all(b.kind == "assign" and isinstance(b.value, cst.Name) for b in bindings):
                    continue
                for alias in bindings:
                    target = self.single_binding(alias.value.value, scope)
                    if target is not None and target is not alias and target.name != name:
                        found.setdefault(id(target), []).append(alias)
        return found

    @cached_property
    def _alias_bindings(self) -> set[int]:
        return {id(alias) for aliases in self._aliases.values() for alias in aliases}

    def calls_named(self, name: str) -> list[CallSite]:
        """Call sites whose callee is ``name(...)`` or ``<anything>.name(...)``."""
        return self._calls_by_name.get(name, [])

    @cached_property
    def _calls_by_name(self) -> dict[str, list[CallSite]]:
        index: dict[str, list[CallSite]] = {}
        for site in self.calls:
            func = site.node.func
            if isinstance(func, cst.Name):
                index.setdefault(func.value, []).append(site)
            elif isinstance(func, cst.Attribute):
                index.setdefault(func.attr.value, []).append(site)
        return index


class _ModelBuilder(Walker):
    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.module_scope = Scope("module", module, None)
        self.frame = Frame(module, None, self.module_scope)
        self.calls: list[CallSite] = []
        self.functions: dict[cst.FunctionDef, Frame] = {}
        self.classes: dict[cst.ClassDef, Frame] = {}
        self.scope_of: dict[cst.CSTNode, Scope] = {module: self.module_scope}
        self.call_site_of: dict[cst.Call, CallSite] = {}
        self.parent_statement: dict[cst.CSTNode, cst.CSTNode] = {}
        self.returns: list[tuple[cst.Return, Frame]] = []
        self.item_writes: list[tuple[str, Frame, cst.CSTNode]] = []
        self.statement: Optional[cst.CSTNode] = None
        self.immediate_callees: set[cst.Call] = set()

    @property
    def scope(self) -> Scope:
        return self.frame.scope

    def _push(self, node: cst.CSTNode, scope: Optional[Scope] = None) -> None:
        self.frame = Frame(node, self.frame, scope or self.frame.scope)

    def _pop(self) -> None:
        assert self.frame.parent is not None
        self.frame = self.frame.parent

    def _bind(self, name: str, kind: str, node: cst.CSTNode, value=None, imported=None,
              scope: Optional[Scope] = None) -> None:
        scope = scope or self.scope
        scope.add(Binding(name, kind, scope, node, value, imported, self.frame))

    def _bind_target(self, target: cst.BaseExpression, kind: str, node: cst.CSTNode, value=None,
                     write: Optional[cst.CSTNode] = None) -> None:
        """Bind the names ``target`` assigns; with ``write`` (the AssignTarget or statement),
        record its item and attribute writes too."""
        if isinstance(target, cst.Name):
            self._bind(target.value, kind, node, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_target(element.value, kind, node, write=write)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, kind, node, write=write)
        elif write is not None and isinstance(target, (cst.Subscript, cst.Attribute)):
            root = target.value
            while isinstance(root, (cst.Subscript, cst.Attribute)):
                root = root.value
            if isinstance(root, cst.Name):
                self.item_writes.append((root.value, self.frame, write))

    # ------------------------------------------------------------------ statements
    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.statement = node

    def leave_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.statement = None

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = _dotted(alias.name)
            if alias.asname is not None:
                self._bind(alias.asname.name.value, "import", node, imported=full)
            else:
                top = full.split(".")[0]
                self._bind(top, "import", node, imported=top)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = _dotted(node.module) if node.module is not None else ""
        prefix = "." * len(node.relative) + module
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = _dotted(alias.name)
            local = alias.asname.name.value if alias.asname is not None else name
            sep = "" if prefix.endswith(".") else "."
            self._bind(local, "import", node, imported=f"{prefix}{sep}{name}")

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        self.parent_statement[value] = node
        for target in node.targets:
            self._bind_target(target.target, "assign", node, value, write=target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.parent_statement[node.value] = node
        self._bind_target(node.target, "assign", node, node.value, write=node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, "other", node, write=node)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        # PEP 572: the target binds in the nearest enclosing non-comprehension scope.
        scope = self.scope
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = scope.parent
        if isinstance(node.target, cst.Name):
            self._bind(node.target.value, "assign", node, node.value, scope=scope)

    def visit_Return(self, node: cst.Return) -> None:
        self.returns.append((node, self.frame))
        if node.value is not None:
            self.parent_statement[node.value] = node

    def visit_Global(self, node: cst.Global) -> None:
        self.scope.global_names.update(item.name.value for item in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.scope.nonlocal_names.update(item.name.value for item in node.names)

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            if item.asname is not None:
                self._bind_target(item.asname.name, "other", node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind_target(node.name.name, "other", node)

    def visit_Del(self, node: cst.Del) -> None:
        self._bind_target(node.target, "other", node, write=node)

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self._bind(node.name.value, "other", node)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self._bind(node.name.value, "other", node)

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self._bind(node.rest.value, "other", node)

    # ------------------------------------------------------------------ scopes
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self._bind(node.name.value, "def", node)
        self.functions[node] = self.frame
        # Decorators, defaults and annotations are evaluated in the enclosing scope.
        for decorator in node.decorators:
            self.walk(decorator)
        _visit_param_defaults(node.params, self)
        if node.returns is not None:
            self.walk(node.returns)
        scope = Scope("function", node, self.scope)
        self.scope_of[node] = scope
        self._push(node, scope)
        _bind_params(node.params, self)
        self.walk(node.body)
        self._pop()
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        _visit_param_defaults(node.params, self)
        scope = Scope("lambda", node, self.scope)
        self.scope_of[node] = scope
        self._push(node, scope)
        _bind_params(node.params, self)
        self.walk(node.body)
        self._pop()
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._bind(node.name.value, "class", node)
        self.classes[node] = self.frame
        for decorator in node.decorators:
            self.walk(decorator)
        for arg in (*node.bases, *node.keywords):
            self.walk(arg)
        scope = Scope("class", node, self.scope)
        self.scope_of[node] = scope
        self._push(node, scope)
        self.walk(node.body)
        self._pop()
        return False

    def _visit_comprehension(self, node, elements) -> bool:
        # The outermost iterable is evaluated once, in the enclosing scope.
        self.walk(node.for_in.iter)
        scope = Scope("comprehension", node, self.scope)
        self.scope_of[node] = scope
        self._push(node, scope)
        comp: Optional[cst.CompFor] = node.for_in
        first = True
        while comp is not None:
            self._bind_target(comp.target, "loop-target", comp)
            if not first:
                self.walk(comp.iter)
            for cond in comp.ifs:
                self.walk(cond)
            first = False
            comp = comp.inner_for_in
        for element in elements:
            self.walk(element)
        self._pop()
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return self._visit_comprehension(node, [node.elt])

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return self._visit_comprehension(node, [node.elt])

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return self._visit_comprehension(node, [node.elt])

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return self._visit_comprehension(node, [node.key, node.value])

    # ------------------------------------------------------------------ control flow
    def visit_For(self, node: cst.For) -> bool:
        self.walk(node.iter)
        self._push(node)
        self._bind_target(node.target, "loop-target", node)
        self.walk(node.body)
        self._pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        return False

    def visit_While(self, node: cst.While) -> bool:
        self._push(node)
        self.walk(node.test)
        self.walk(node.body)
        self._pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        return False

    def visit_If(self, node: cst.If) -> bool:
        self.walk(node.test)
        self._push(node)
        self.walk(node.body)
        self._pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        return False

    def visit_Call(self, node: cst.Call) -> None:
        site = CallSite(node, self.frame, node in self.immediate_callees, self.statement)
        self.calls.append(site)
        self.call_site_of[node] = site
        if isinstance(node.func, cst.Call):
            self.immediate_callees.add(node.func)


def _visit_param_defaults(params: cst.Parameters, visitor: Walker) -> None:
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.default is not None:
            visitor.walk(param.default)


def _bind_params(params: cst.Parameters, builder: _ModelBuilder) -> None:
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    if isinstance(params.star_arg, cst.Param):
        every.append(params.star_arg)
    if params.star_kwarg is not None:
        every.append(params.star_kwarg)
    for param in every:
        builder._bind(param.name.value, "param", param)


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def dotted_name(node: cst.BaseExpression) -> str:
    """``a.b.c`` as text for a Name/Attribute chain, '' for anything else."""
    return _dotted(node)


def target_names(target: cst.BaseExpression) -> list[Optional[str]]:
    """The names an assignment target binds, in order: ``x`` -> [x]; ``a, (b, c), d`` -> [a,
    None, d] (None for an element that is not a plain name)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [e.value.value if isinstance(e.value, cst.Name) else None for e in target.elements]
    return []


def argument(call: cst.Call, position: Optional[int], *keywords: str) -> Optional[cst.Arg]:
    """The argument ``call`` gives a parameter: by one of its ``keywords``, or positionally at
    ``position`` (None or negative: keyword-only).  None when left out, or when ``*args``
    comes before that position (which value lands there is not known)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in keywords:
            return arg
    if position is None or position < 0:
        return None
    positional = [a for a in call.args if a.keyword is None]
    if position >= len(positional) or any(a.star for a in positional[:position + 1]):
        return None
    return positional[position]


def argument_value(call: cst.Call, position: Optional[int], *keywords: str) -> Optional[cst.BaseExpression]:
    """The value of ``argument``."""
    arg = argument(call, position, *keywords)
    return arg.value if arg is not None else None


def passed_values(sites: Iterable["CallSite"], position: Optional[int], name: str,
                  default: Optional[cst.BaseExpression] = None
                  ) -> Optional[list[tuple[cst.BaseExpression, "CallSite"]]]:
    """What each call in ``sites`` gives the parameter ``name`` (at ``position``), ``default``
    where a call leaves it out: (value, site) per call.  None when a call spreads arguments
    (``*args``) or leaves out a parameter that has no default."""
    found = []
    for site in sites:
        if any(arg.star for arg in site.node.args):
            return None
        value = argument_value(site.node, position, name)
        value = default if value is None else value
        if value is None:
            return None
        found.append((value, site))
    return found


def is_none(expr: Optional[cst.BaseExpression]) -> bool:
    """The literal ``None``."""
    return isinstance(expr, cst.Name) and expr.value == "None"


def decorator_name(decorator: cst.Decorator) -> str:
    """``@staticmethod`` -> staticmethod; '' for any decorator that is not a plain name."""
    expr = decorator.decorator
    return expr.value if isinstance(expr, cst.Name) else ""


def has_decorator(function: cst.FunctionDef, name: str) -> bool:
    return any(decorator_name(d) == name for d in function.decorators)


def build_model(module: cst.Module, module_name: Optional[str] = None) -> SemanticModel:
    builder = _ModelBuilder(module)
    builder.walk(module)
    return SemanticModel(
        module=module,
        module_scope=builder.module_scope,
        calls=builder.calls,
        functions=builder.functions,
        classes=builder.classes,
        scope_of=builder.scope_of,
        call_site_of=builder.call_site_of,
        parent_statement=builder.parent_statement,
        returns=builder.returns,
        item_writes=builder.item_writes,
        module_name=module_name,
    )
