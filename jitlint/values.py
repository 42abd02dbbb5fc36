"""Flow-sensitive values: which definitions of a name reach a read, and what they create.

The semantic model (``semantic.py``) is flow-insensitive: it knows every binding of a name in a
scope but not which one a given read sees.  Rules that ask "what is this argument?" need the
latter: reusing a loop counter's name for a second loop, or rebinding ``sum`` after a call,
must not hide (or invent) a finding.  ``ValueFlow.reaching(name, scope)`` answers it with a
classic reaching-definitions analysis over the statements of the name's scope (``if``/``else``
join, loops iterate to a fixed point so a value assigned late in a loop body reaches the reads
at its top, ``break``/``continue``/``return``/``raise`` end a path, ``try`` handlers see every
state of their body).  It is computed once per scope, only for scopes a rule asks about.

Reads from a nested function or lambda see the enclosing variable when they run, which the
walk cannot order: they get every binding (the flow-insensitive answer), as do names declared
``global``/``nonlocal``.  On top of that: ``assigned_values`` (the right-hand sides that reach a
read, through tuple unpacking) and ``Varying``/``varies_per_iteration`` (a scalar that takes a new
value on every iteration of a loop: a counter, arithmetic of it, a value updated from itself,
the length of a list that grows in the loop, an attribute set to a number and updated in the loop,
a value returned by a module function from such a value), ``origin`` (where a value is created, through the
one definition reaching a read) and ``array_made_by`` (a call that certainly returns a NumPy or
jax array).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import (FLOAT_RANGES, FLOAT_WHEN_FLOAT_BOUND_RANGES, SHAPE_JOINING_CALLS, PASS_THROUGH, RANGES_WITH_PROGRESS, ARRAY_RETURNING_KEY_FUNCTIONS, ONE_AXIS_CONSTRUCTORS, SHAPE_ARGUMENT_CONSTRUCTORS, HOST_GENERATOR_SIZE_PARAMS, HOST_RANDOM_DRAWS,
                              HOST_RANDOM_GENERATORS, HOST_RANDOM_SIZE_PARAMS, JAX_RANDOM_NUMBER_DRAWS)
from jitlint.semantic import LOOP_TYPES, Binding, CallSite, Frame, Scope, SemanticModel, target_names
from jitlint.walk import children, iter_nodes, own_nodes

State = dict[str, frozenset]  # name -> the bindings that may reach this point
_NESTED = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def _join(states: list[Optional[State]]) -> Optional[State]:
    live = [s for s in states if s is not None]
    if not live:
        return None  # unreachable
    if len(live) == 1:
        return dict(live[0])
    joined: State = {}
    for state in live:
        for name, defs in state.items():
            joined[name] = joined[name] | defs if name in joined else defs
    return joined


class _ScopeFlow:
    """Reaching definitions for every name read in one scope's own statements."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.defs_at: dict[int, list[Binding]] = {}
        for bindings in scope.bindings.values():
            for binding in bindings:
                self.defs_at.setdefault(id(binding.node), []).append(binding)
        self.reads: dict[int, frozenset] = {}  # id(Name node) -> reaching bindings
        self.loop_stack: list[tuple[list, list]] = []  # (break states, continue states)
        node = scope.node
        state: State = {}
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            params = node.params
            for param in (*params.posonly_params, *params.params, *params.kwonly_params,
                          params.star_arg, params.star_kwarg):
                if isinstance(param, cst.Param):
                    self._gen(param, state)
        if isinstance(node, cst.Lambda):
            self._expr(node.body, state)
            return
        body = node.body if isinstance(node, cst.Module) else getattr(node.body, "body", ())
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and not isinstance(node.body, cst.IndentedBlock):
            body = node.body.body  # ``def f(): return x`` on one line
        self._block(body, state)

    # ------------------------------------------------------------------ transfer
    def _gen(self, node: cst.CSTNode, state: State) -> None:
        for binding in self.defs_at.get(id(node), ()):
            state[binding.name] = frozenset((binding,))

    def _havoc(self, node: cst.CSTNode, state: State) -> None:
        """An unmodelled statement: every binding inside it may reach what follows."""
        stack = [node]
        while stack:
            current = stack.pop()
            for binding in self.defs_at.get(id(current), ()):
                state[binding.name] = state.get(binding.name, frozenset()) | {binding}
            if not isinstance(current, _NESTED) or current is node:
                stack.extend(children(current))

    def _expr(self, node: Optional[cst.CSTNode], state: State) -> None:
        """Record the reaching bindings of every name read in an expression evaluated now."""
        if node is None:
            return
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, cst.Name):
                self.reads[id(current)] = state.get(current.value, frozenset())
                continue
            if isinstance(current, cst.Lambda):
                for param in (*current.params.posonly_params, *current.params.params,
                              *current.params.kwonly_params):
                    if param.default is not None:
                        stack.append(param.default)
                continue  # the body runs later
            if isinstance(current, cst.Attribute):
                stack.append(current.value)
                continue
            if isinstance(current, cst.Arg):
                stack.append(current.value)
                continue
            if isinstance(current, cst.NamedExpr):
                self._expr(current.value, state)
                self._gen(current, state)
                continue
            stack.extend(reversed(children(current)))

    def _block(self, statements, state: Optional[State]) -> Optional[State]:
        for statement in statements:
            if state is None:
                return None
            state = self._statement(statement, state)
        return state

    def _suite(self, suite: Optional[cst.CSTNode], state: Optional[State]) -> Optional[State]:
        if suite is None or state is None:
            return state
        body = suite.body
        if isinstance(body, cst.BaseSuite):
            body = body.body
        return self._block(body if isinstance(body, (list, tuple)) else [body], state)

    def _statement(self, node: cst.CSTNode, state: State) -> Optional[State]:
        if isinstance(node, cst.SimpleStatementLine):
            return self._block(node.body, state)
        if isinstance(node, cst.Assign):
            self._expr(node.value, state)
            for target in node.targets:
                self._target_reads(target.target, state)
            self._gen(node, state)
            return state
        if isinstance(node, cst.AnnAssign):
            self._expr(node.value, state)
            self._target_reads(node.target, state)
            if node.value is not None:
                self._gen(node, state)
            return state
        if isinstance(node, cst.AugAssign):
            self._expr(node.value, state)
            self._expr(node.target, state)  # ``x += 1`` reads x
            self._gen(node, state)
            return state
        if isinstance(node, (cst.Expr, cst.Assert)):
            self._expr(node, state)
            return state
        if isinstance(node, (cst.Return, cst.Raise)):
            self._expr(node, state)
            return None
        if isinstance(node, cst.Break):
            if self.loop_stack:
                self.loop_stack[-1][0].append(dict(state))
            return None
        if isinstance(node, cst.Continue):
            if self.loop_stack:
                self.loop_stack[-1][1].append(dict(state))
            return None
        if isinstance(node, (cst.Import, cst.ImportFrom, cst.Del)):
            self._gen(node, state)
            return state
        if isinstance(node, (cst.Pass, cst.Global, cst.Nonlocal)):
            return state
        if isinstance(node, cst.FunctionDef):
            for decorator in node.decorators:
                self._expr(decorator.decorator, state)
            for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
                self._expr(param.default, state)
            self._gen(node, state)
            return state
        if isinstance(node, cst.ClassDef):
            for decorator in node.decorators:
                self._expr(decorator.decorator, state)
            for arg in (*node.bases, *node.keywords):
                self._expr(arg.value, state)
            self._gen(node, state)
            return state
        if isinstance(node, cst.If):
            self._expr(node.test, state)
            body = self._suite(node.body, dict(state))
            orelse = node.orelse
            if isinstance(orelse, cst.If):
                other = self._statement(orelse, dict(state))
            elif isinstance(orelse, cst.Else):
                other = self._suite(orelse.body, dict(state))
            else:
                other = state
            return _join([body, other])
        if isinstance(node, (cst.For, cst.While)):
            return self._loop(node, state)
        if isinstance(node, cst.With):
            for item in node.items:
                self._expr(item.item, state)
            self._gen(node, state)
            return self._suite(node.body, state)
        if isinstance(node, cst.Try):
            return self._try(node, state)
        self._havoc(node, state)  # match, try-star, anything newer: its reads get the fallback
        return state

    def _target_reads(self, target: cst.BaseExpression, state: State) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._target_reads(element.value, state)
        elif isinstance(target, cst.StarredElement):
            self._target_reads(target.value, state)
        elif isinstance(target, (cst.Subscript, cst.Attribute)):
            self._expr(target, state)

    def _loop(self, node, state: State) -> Optional[State]:
        if isinstance(node, cst.For):
            self._expr(node.iter, state)
        head: State = dict(state)
        exit_states: list[Optional[State]] = []
        for _ in range(4):  # reaching definitions settle in a few rounds
            breaks: list = []
            continues: list = []
            self.loop_stack.append((breaks, continues))
            entry = dict(head)
            if isinstance(node, cst.While):
                self._expr(node.test, entry)
            else:
                self._gen(node, entry)
                self._target_reads(node.target, entry)
            end = self._suite(node.body, entry)
            self.loop_stack.pop()
            new_head = _join([head, end, *continues])
            exit_states = breaks
            if new_head == head:
                break
            head = new_head  # type: ignore[assignment]
        if isinstance(node, cst.While):
            self._expr(node.test, head)
        after = self._suite(node.orelse.body, dict(head)) if node.orelse is not None else head
        return _join([after, *exit_states])

    def _try(self, node: cst.Try, state: State) -> Optional[State]:
        during: list[Optional[State]] = [dict(state)]
        current: Optional[State] = dict(state)
        for statement in node.body.body:
            if current is None:
                break
            current = self._statement(statement, current)
            during.append(dict(current) if current is not None else None)
        if current is not None and node.orelse is not None:
            current = self._suite(node.orelse.body, current)
        outcomes = [current]
        for handler in node.handlers:
            entry = _join(during)
            if entry is None:
                continue
            self._expr(handler.type, entry)
            self._gen(handler, entry)
            outcomes.append(self._suite(handler.body, entry))
        result = _join(outcomes)
        if node.finalbody is not None:
            final = _join([*during, *outcomes])
            if final is not None:
                self._suite(node.finalbody.body, final)
            result = self._suite(node.finalbody.body, result) if result is not None else None
        return result


class ValueFlow:
    """Reaching definitions for the reads of one module, computed per scope on demand."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self._flows: dict[int, _ScopeFlow] = {}

    def reaching(self, name: cst.Name, scope: Scope) -> list[Binding]:
        """The bindings of ``name`` (a read in ``scope``) that may reach it, in source order.

        Falls back to every binding the scope rules allow when the read is not in the walked
        statements of the name's own scope (a closure, a ``global`` name, a synthetic node)."""
        bindings = self.model.lookup(name.value, scope)
        if len(bindings) <= 1:
            return bindings
        owner = bindings[0].scope
        if owner.kind in ("lambda", "comprehension") or name.value in owner.global_names \
                or name.value in owner.nonlocal_names:
            return bindings
        home = scope
        while home.kind == "comprehension" and home.parent is not None:
            home = home.parent
        if home is not owner:
            return bindings  # read from a nested function: runs later
        flow = self._flows.get(id(owner))
        if flow is None:
            flow = self._flows[id(owner)] = _ScopeFlow(owner)
        found = flow.reads.get(id(name))
        if not found:
            return bindings
        return [b for b in bindings if b in found]

    def single(self, name: cst.Name, scope: Scope) -> Optional[Binding]:
        found = self.reaching(name, scope)
        return found[0] if len(found) == 1 else None


def value_flow(ctx) -> ValueFlow:
    """The file's shared ``ValueFlow`` (memoised on the rule context)."""
    return ctx.shared("value-flow", lambda c: ValueFlow(c.model))


def unpacked_keywords(expr: cst.BaseExpression, scope: Scope, model: SemanticModel
                      ) -> Optional[list[tuple[str, cst.BaseExpression]]]:
    """The keyword arguments ``**expr`` passes, when the code shows them: a dict literal with
    string keys (``**{"shape": [2, 3]}``), ``dict(shape=...)``, or a local name bound once to
    one and never written through (``options = {...}`` ... ``f(x, **options)``).  None: not
    known."""
    if isinstance(expr, cst.Name):
        bindings = model.lookup(expr.value, scope)

        def same(name: str, where: Scope) -> bool:  # that name, not another function's ``kwargs``
            return name == expr.value and any(b is bindings[0] for b in model.lookup(name, where))

        if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].node, cst.Assign) \
                or len(bindings[0].node.targets) != 1 or not isinstance(bindings[0].node.targets[0].target, cst.Name) \
                or any(same(root, frame.scope) for root, frame, _ in model.item_writes) \
                or any(isinstance(site.node.func, cst.Attribute) and same(code_text(site.node.func.value), site.frame.scope)
                       for site in model.calls):
            return None  # rebound, or written (``options["lr"] = ...``, ``options.update(...)``)
        expr = bindings[0].value  # type: ignore[assignment]
        scope = bindings[0].scope
    if isinstance(expr, cst.Dict):
        found = []
        for element in expr.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
                return None
            found.append((element.key.evaluated_value, element.value))
        return found
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "dict" \
            and not model.lookup("dict", scope) and all(a.keyword is not None and not a.star for a in expr.args):
        return [(a.keyword.value, a.value) for a in expr.args]  # type: ignore[union-attr]
    return None


def fields_made_in_init(model: SemanticModel, cls: cst.ClassDef, fields: list[str]
                        ) -> Iterator[tuple[str, cst.BaseExpression, Scope]]:
    """(field, value, scope) for each ``self.field = <display or call>`` directly in
    ``__init__``: the same for every instance, whatever the arguments (``self.layers = [...]``,
    ``self.table = np.arange(10)``, ``self.w = jnp.ones(n) / n``: arithmetic of an array is
    one)."""
    displays = (cst.List, cst.ListComp, cst.Dict, cst.DictComp, cst.Set, cst.SetComp, cst.Call,
                cst.BinaryOperation)
    for field, value, init_scope in fields_set_in_init(model, cls, fields):
        if isinstance(value, displays):
            yield field, value, init_scope


def fields_set_in_init(model: SemanticModel, cls: cst.ClassDef, fields: Optional[list[str]] = None,
                       depth: int = 0) -> Iterator[tuple[str, cst.BaseExpression, Scope]]:
    """(field, value, scope) for each ``self.field = value`` directly in ``__init__`` (or a
    method only ``__init__`` calls, ``self.setup_model()``), whatever the value
    (``self.widths = widths``: a parameter's); every field when ``fields`` is None.  Fields the
    class's own ``__init__`` leaves to its base class of this module (no ``__init__`` of its
    own, or one calling ``super().__init__(...)``) come from the base's: an environment wrapper
    storing ``self.env = env`` for every subclass."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    builders = [s for s in body if isinstance(s, cst.FunctionDef)
                and (s.name.value == "__init__" or s in model.construction_helpers)]
    own: set[str] = set()
    for init in builders:  # ``__init__``, and the methods only it calls (``self.setup_model()``)
        init_scope = model.scope_of.get(init)
        if init_scope is None or not isinstance(init.body, cst.IndentedBlock):
            continue
        for statement in init.body.body:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    target = small.targets[0].target
                    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                            and target.value.value == "self" and (fields is None or target.attr.value in fields):
                        own.add(target.attr.value)
                        yield target.attr.value, small.value, init_scope
    init = next((s for s in builders if s.name.value == "__init__"), None)
    base = single_local_base(model, cls) if depth < 5 else None
    if base is not None and (init is None or calls_super_init(init)):
        for field, value, init_scope in fields_set_in_init(model, base, fields, depth + 1):
            if field not in own:
                yield field, value, init_scope


def single_local_base(model: SemanticModel, cls: cst.ClassDef) -> Optional[cst.ClassDef]:
    """The one base class of ``cls`` when it is a class of this module (``class
    ConstraintWrapper(Wrapper)``): what ``super()`` in its methods names."""
    frame = model.classes.get(cls)
    bases = [b for b in cls.bases if not (isinstance(b.value, cst.Name) and b.value.value == "object")]
    if frame is None or len(bases) != 1 or bases[0].keyword is not None or bases[0].star \
            or not isinstance(bases[0].value, cst.Name):
        return None
    binding = model.single_binding(bases[0].value.value, frame.scope)
    return binding.node if binding is not None and binding.kind == "class" \
        and isinstance(binding.node, cst.ClassDef) else None


def calls_super_init(init: cst.FunctionDef) -> bool:
    """``super().__init__(...)`` (or ``super(Cls, self).__init__(...)``) in ``init``'s body."""
    return any(isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "__init__"
               and isinstance(node.func.value, cst.Call) and isinstance(node.func.value.func, cst.Name)
               and node.func.value.func.value == "super" for node in iter_nodes(init.body))


def attribute_writes_elsewhere(model: SemanticModel, name: str) -> list[tuple[cst.CSTNode, Frame]]:
    """The writes of ``<something>.name`` outside an ``__init__`` (and the methods only it
    calls), also through unpacking (``self.params, self.opt_state = step(...)``): (the write,
    its frame)."""
    found = []
    for _, frame, node in model.item_writes:
        target = node.target if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) else None
        function = frame.enclosing_function()
        if function is not None and (function.name.value == "__init__" or function in model.construction_helpers):
            continue
        if any(isinstance(leaf, cst.Attribute) and leaf.attr.value == name for leaf in target_leaves(target)):
            found.append((node, frame))
    return found


def attribute_written_elsewhere(model: SemanticModel, name: str) -> bool:
    """Whether some write outside an ``__init__`` (and the methods only it calls) targets
    ``<something>.name``."""
    return bool(attribute_writes_elsewhere(model, name))


def target_leaves(target: Optional[cst.BaseExpression]) -> Iterator[cst.BaseExpression]:
    """What an assignment target writes, through unpacking (``a.x, (b, *c) = ...``)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from target_leaves(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from target_leaves(target.value)
    elif target is not None:
        yield target


def self_attribute_value(model: SemanticModel, attr: cst.Attribute, scope: Scope, any_value: bool = False,
                         ignored_write: Optional[Callable[[cst.CSTNode, Frame], bool]] = None
                         ) -> Optional[tuple[cst.BaseExpression, Scope]]:
    """``self.table`` read in a method: the one value its class's ``__init__`` gives it
    (``fields_made_in_init``; ``any_value``: ``fields_set_in_init``), when nothing else in the
    module writes ``.table`` (but the writes ``ignored_write`` accepts)."""
    if not isinstance(attr.value, cst.Name) or not isinstance(scope.node, cst.FunctionDef):
        return None
    # the method whose ``self`` it reads: this one, or one a closure here is nested in
    method = method_of_self(model, attr.value, scope) if attr.value.value == "self" else None
    if method is None or method not in model.functions:
        return None
    owner = model.functions[method].scope
    if owner.kind != "class" or not isinstance(owner.node, cst.ClassDef):
        return None
    values = list((fields_set_in_init if any_value else fields_made_in_init)(model, owner.node, [attr.attr.value]))
    if len(values) != 1 or any(ignored_write is None or not ignored_write(write, frame)
                               for write, frame in attribute_writes_elsewhere(model, attr.attr.value)):
        return None
    return values[0][1], values[0][2]


def method_of_self(model: SemanticModel, name: cst.Name, scope: Scope) -> Optional[cst.FunctionDef]:
    """The def whose first parameter ``name`` (read in ``scope``) is: the function ``scope``
    belongs to, or one it is nested in (``self.table`` in a closure a method returns)."""
    bindings = model.lookup(name.value, scope)
    if len(bindings) != 1 or bindings[0].kind != "param" or not isinstance(bindings[0].scope.node, cst.FunctionDef):
        return None
    method = bindings[0].scope.node
    params = [*method.params.posonly_params, *method.params.params]
    return method if params and params[0] is bindings[0].node else None


def dict_item_value(flow: "ValueFlow", expr: cst.BaseExpression, scope: Scope
                    ) -> Optional[tuple[cst.BaseExpression, Scope]]:
    """``cfg["s"]``: the value a dict display bound once to ``cfg`` gives the constant key, when
    nothing writes an item of ``cfg`` (``CONFIG = {"hidden": [64, 64]}`` ... ``CONFIG["hidden"]``)."""
    if not (isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and len(expr.slice) == 1
            and isinstance(expr.slice[0].slice, cst.Index) and isinstance(expr.slice[0].slice.value, cst.SimpleString)):
        return None
    key = expr.slice[0].slice.value.evaluated_value
    binding = flow.single(expr.value, scope)
    if binding is None or binding.kind != "assign" or not isinstance(binding.value, cst.Dict) \
            or not isinstance(binding.node, cst.Assign) or len(binding.node.targets) != 1:
        return None
    writes = [(frame, write) for root, frame, write in flow.model.item_writes if root == expr.value.value]
    if writes:
        return _item_written_once(flow.model, binding, writes, key)
    for element in binding.value.elements:
        if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString) \
                and element.key.evaluated_value == key:
            return element.value, binding.scope
    return None


def _item_written_once(model: SemanticModel, binding: Binding, writes, key: str
                       ) -> Optional[tuple[cst.BaseExpression, Scope]]:
    """``loaders = {}`` then ``loaders["train"] = DataLoader(...)``: the value of the one
    statement that sets ``key``, when every item write of the dict sets a constant key, in the
    dict's own scope and not under a loop or an ``if`` (so each runs once, in order)."""
    found = None
    for frame, write in writes:
        target = write.target if isinstance(write, cst.AssignTarget) else None
        if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and len(target.slice) == 1
                and isinstance(target.slice[0].slice, cst.Index)
                and isinstance(target.slice[0].slice.value, cst.SimpleString)) \
                or frame.scope is not binding.scope or frame.node is not binding.scope.node:
            return None
        if target.slice[0].slice.value.evaluated_value == key:
            if found is not None:
                return None
            found = write
    if found is None:
        return None
    statement = next((node for node in own_nodes(binding.scope.node)
                      if isinstance(node, cst.Assign) and any(t is found for t in node.targets)), None)
    return (statement.value, binding.scope) if statement is not None and len(statement.targets) == 1 else None


def class_namespace_alias(model: SemanticModel, attr: cst.Attribute, scope: Scope) -> Optional[Binding]:
    """``ops.render`` of a class of this module used as a namespace, whose body binds
    ``render = staticmethod(render)`` (or ``render = render``): the binding of the function
    it names, outside the class."""
    receiver = model.single_binding(attr.value.value, scope) if isinstance(attr.value, cst.Name) else None
    if receiver is None or receiver.kind != "class":
        return None  # (asked of every attribute call: the cheap test first)
    found = class_attribute_value(model, attr, scope)
    value = found[0] if found is not None else None
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "staticmethod" \
            and len(value.args) == 1:
        value = value.args[0].value
    if not isinstance(value, cst.Name) or found[1].parent is None:
        return None
    return model.single_binding(value.value, found[1].parent)


def class_attribute_value(model: SemanticModel, attr: cst.Attribute, scope: Scope
                          ) -> Optional[tuple[cst.BaseExpression, Scope]]:
    """``cfg.class_weights`` / ``Config.class_weights``: the value the class body of a class of
    this module assigns, read through the class or an instance bound once to a call of it
    (``cfg = Config()``, or ``self.config = Config()`` in ``__init__``), when no ``__init__``
    sets it and nothing in the module writes it."""
    if attribute_written_elsewhere(model, attr.attr.value):
        return None
    if isinstance(attr.value, cst.Attribute):  # ``self.config.rules`` with ``self.config = Config()``
        made = self_attribute_value(model, attr.value, scope)
        binding = model.single_binding(made[0].func.value, made[1]) \
            if made is not None and isinstance(made[0], cst.Call) and isinstance(made[0].func, cst.Name) else None
    elif isinstance(attr.value, cst.Name):
        binding = model.single_binding(attr.value.value, scope)
        if binding is not None and binding.kind == "assign" and isinstance(binding.value, cst.Call) \
                and isinstance(binding.value.func, cst.Name):
            binding = model.single_binding(binding.value.func.value, binding.scope)
    else:
        return None
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
        return None
    cls = binding.node
    if list(fields_made_in_init(model, cls, [attr.attr.value])):
        return None
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    class_scope = model.scope_of.get(cls)
    for statement in body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, cst.AnnAssign) and small.value is not None else []
            if any(isinstance(t, cst.Name) and t.value == attr.attr.value for t in targets) and class_scope:
                return small.value, class_scope
    return None


# ---------------------------------------------------------------------------- what reaches
@dataclass(frozen=True)
class Assigned:
    """One definition that reaches a read: the expression it assigns (None: not a plain
    value), the binding, and for ``x op= v`` the augmented statement."""

    value: Optional[cst.BaseExpression]
    binding: Binding
    augmented: Optional[cst.AugAssign] = None


def assigned(binding: Binding) -> Assigned:
    """What a binding assigns: ``x = v`` -> v; ``a, x = u, v`` -> v; ``x += v`` -> augmented."""
    node = binding.node
    if isinstance(node, cst.AugAssign):
        return Assigned(None, binding, node)
    if binding.kind != "assign":
        return Assigned(None, binding)
    if isinstance(node, cst.Assign):
        for target in node.targets:
            value = _unpack(target.target, node.value, binding.name)
            if value is not None:
                return Assigned(value, binding)
        return Assigned(None, binding)
    return Assigned(binding.value, binding)


def _unpack(target: cst.BaseExpression, value: cst.BaseExpression, name: str) -> Optional[cst.BaseExpression]:
    if isinstance(target, cst.Name):
        return value if target.value == name else None
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)):
        if len(target.elements) != len(value.elements) or any(
                isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
            return None
        for t, v in zip(target.elements, value.elements, strict=True):
            found = _unpack(t.value, v.value, name)
            if found is not None:
                return found
    return None


def carried(flow: ValueFlow, bindings: list[Binding], name: str) -> list[Binding]:
    """The definitions reaching a read, plus those that reach the reads of ``name`` in its own
    updates (``n -= 1``, ``m = m[:-1]``, ``acc = concatenate([acc, x])``): the value carried
    around a loop, back to where it starts.  A read after ``n -= 1`` in the same iteration is
    reached only by the update; the update's own read of ``n`` is reached by ``n = 10`` too."""
    found = list(bindings)
    for binding in found:  # grows while iterating: a worklist
        node = binding.node
        reads: list[cst.Name] = []
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            reads = [node.target]
        elif isinstance(node, cst.Assign):
            reads = [n for n in names_in(node.value) if n.value == name]
        for read in reads:
            for more in flow.reaching(read, binding.scope):
                if more not in found:
                    found.append(more)
    return found


def reaching_values(flow: ValueFlow, name: cst.Name, scope: Scope) -> list[Assigned]:
    """What each definition reaching this read of ``name`` assigns (empty: none known)."""
    return [assigned(b) for b in flow.reaching(name, scope)]


# ---------------------------------------------------------------------------- per iteration
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power)
SCALAR_FUNCTIONS = frozenset({"math.exp", "math.cos", "math.sin", "math.sqrt", "math.log",
                              "math.pow", "numpy.exp", "numpy.cos", "numpy.sqrt", "numpy.power"})
# Methods that add elements to a list (or a deque).
GROW_METHODS = frozenset({"append", "extend", "insert", "appendleft"})
# Methods that change a container in place (lists, dicts, sets).
MUTATING_METHODS = GROW_METHODS | frozenset({
    "pop", "remove", "clear", "update", "setdefault", "popitem", "add", "discard", "sort", "reverse",
    "__setitem__", "__delitem__",
})


@dataclass(frozen=True)
class Varying:
    """A Python scalar that takes a new value on every iteration of ``loop``."""

    loop: cst.CSTNode
    counter: Optional[str]  # the range/enumerate counter it comes from, if any
    how: str  # for messages: "the loop counter `i`", "`lr`, updated in the loop (`lr *= 0.9`)", ...


def _builds_own_class(cls: cst.CSTNode, name: str) -> bool:
    """``cls`` defines ``name`` as a classmethod or staticmethod whose returns all call the
    class (``return cls(...)``, ``return ContactParams(...)``)."""
    body = cls.body.body if isinstance(cls, cst.ClassDef) and isinstance(cls.body, cst.IndentedBlock) else ()
    method = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)
    if method is None or not any(isinstance(d.decorator, cst.Name) and d.decorator.value in ("classmethod", "staticmethod")
                                 for d in method.decorators):
        return False
    own = {cls.name.value, "cls"}  # type: ignore[attr-defined]
    returns = [node for node in iter_nodes(method.body) if isinstance(node, cst.Return)]
    return bool(returns) and all(isinstance(r.value, cst.Call) and isinstance(r.value.func, cst.Name)
                                 and r.value.func.value in own for r in returns)


class IterationValues:
    """Decides whether an expression read inside a loop changes on every iteration."""

    def __init__(self, model: SemanticModel, flow: ValueFlow) -> None:
        self.model = model
        self.flow = flow
        self._numbers: Optional[frozenset[str]] = None
        self._objects = True  # see varying

    def varying(self, expr: cst.BaseExpression, site: CallSite, objects: bool = True) -> Optional[Varying]:
        """``objects``: also an instance of a module class built from a varying value (hashed
        whole at a static position; not a scalar where only scalars are static)."""
        scope = site.frame.scope
        self._objects = objects
        try:
            for loop in site.frame.loops_in_scope():
                found = self._varies(expr, scope, loop, 0)
                if found is not None:
                    return Varying(loop, found[0], found[1])
            return None
        finally:
            self._objects = True

    def varies_in(self, expr: cst.BaseExpression, scope: Scope, loop) -> Optional[str]:
        """How ``expr`` changes on every iteration of ``loop`` (for messages), or None."""
        found = self._varies(expr, scope, loop, 0)
        return found[1] if found is not None else None

    def _varies(self, expr, scope: Scope, loop, depth: int) -> Optional[tuple[Optional[str], str]]:
        """(counter, description) when ``expr`` changes on every iteration of ``loop``."""
        if depth > 4:
            return None
        if isinstance(expr, cst.Name):
            return self._name_varies(expr, scope, loop, depth)
        if isinstance(expr, cst.Attribute):
            return self._attribute_varies(expr, scope, loop)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
            returned = self._returned_varies(expr, scope, loop, depth) or \
                self._constructed_varies(expr, scope, loop, depth)
            if returned is not None:
                return returned
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and isinstance(expr.func.value, cst.Name):
            built = self._constructed_varies(expr, scope, loop, depth)  # ``ContactParams.build(K=K)``
            if built is not None:
                return built
        if isinstance(expr, cst.Call) and self._random_draw(expr, scope, scalar=True):
            return None, f"`{cst.Module([]).code_for_node(expr)}`, a random draw"
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
            return self._varies(expr.expression, scope, loop, depth)
        if isinstance(expr, cst.BinaryOperation) and _distinct_modulo(expr, trip_count(loop)):
            return self._varies(expr.left, scope, loop, depth + 1)
        if isinstance(expr, cst.IfExp):
            return self._choice_varies(expr, scope, loop, depth)
        if isinstance(expr, cst.NamedExpr):  # ``f(x, n := step + 1)``
            return self._varies(expr.value, scope, loop, depth)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, ARITHMETIC):
            left = self._varies(expr.left, scope, loop, depth + 1)
            right = self._varies(expr.right, scope, loop, depth + 1)
            if left and (right or self.invariant(expr.right, scope, loop)):
                return left
            if right and self.invariant(expr.left, scope, loop):
                return right
            return None
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("max", "min") \
                and not self.model.lookup(expr.func.value, scope) and len(expr.args) == 2 \
                and not any(a.keyword or a.star for a in expr.args):
            # ``max(0.1, 1.0 - epoch / 10)``: a value that changes until it reaches the clamp
            first, second = (a.value for a in expr.args)
            if _chunk_length(expr, loop):
                return None  # the chunk size on all but the last chunk: at most two values
            for varying, bound in ((first, second), (second, first)):
                found = self._varies(varying, scope, loop, depth + 1)
                if found is not None and self.invariant(bound, scope, loop):
                    return found
            return None
        if isinstance(expr, cst.Call) and len(expr.args) == 1 and not expr.args[0].keyword \
                and not expr.args[0].star:
            func = expr.func
            inner = expr.args[0].value
            if isinstance(func, cst.Name) and not self.model.lookup(func.value, scope):
                if func.value in ("float", "int") and isinstance(inner, cst.Call) and self._random_draw(inner, scope):
                    return None, f"`{cst.Module([]).code_for_node(expr)}`, a random draw"
                if func.value == "float" or (func.value == "int" and isinstance(inner, cst.Name)):
                    found = self._varies(inner, scope, loop, depth + 1)
                    return found or self._read_from_loop_result(expr, inner, scope, loop)
                if func.value == "int":
                    return self._read_from_loop_result(expr, inner, scope, loop)
                if func.value == "len" and isinstance(inner, cst.Name) and self.grows(inner, scope, loop):
                    return None, f"`len({inner.value})`, the length of a list that grows in the loop"
                return None
            if self.model.qualified_name(func, scope) in SCALAR_FUNCTIONS:
                return self._varies(inner, scope, loop, depth + 1)
        return None

    def _random_draw(self, call: cst.Call, scope: Scope, scalar: bool = False) -> bool:
        """A draw of a random number (jaxfacts.HOST_RANDOM_DRAWS, or ``jax.random``'s draws) that
        can take more than a few values: ``randint(0, 2)`` is a coin, as good as a flag.
        ``scalar``: only a draw that is a Python (or NumPy) scalar as it is: a host draw given no
        size (``np.random.randint(1, 10)``); a ``jax.random`` draw is an array until ``int()``."""
        qualname = self.model.qualified_name(call.func, scope) or ""
        if qualname not in HOST_RANDOM_DRAWS and not (qualname.startswith("jax.random.")
                                                      and qualname.rpartition(".")[2] in JAX_RANDOM_NUMBER_DRAWS):
            return False
        if scalar:
            size = HOST_RANDOM_SIZE_PARAMS.get(qualname)
            positional = [a for a in call.args if a.keyword is None]
            if qualname not in HOST_RANDOM_DRAWS or (size is not None and (
                    any(a.keyword is not None and a.keyword.value == size[1] for a in call.args)
                    or (positional if size[0] == -1 else len(positional) > size[0]))):
                return False
        bounds = [a.value for a in call.args if a.keyword is None][-2:] if qualname.endswith("randint") else []
        if len(bounds) == 2 and all(isinstance(b, cst.Integer) for b in bounds):
            return int(bounds[1].value) - int(bounds[0].value) > 2  # type: ignore[union-attr]
        return True

    def _read_from_loop_result(self, expr: cst.Call, inner: cst.BaseExpression, scope: Scope, loop
                               ) -> Optional[tuple[None, str]]:
        """``float(solution.ts[-1])`` where ``solution`` is the result of a call made in the loop
        (every binding reaching it): a Python number read from data the loop computes anew."""
        names = [n for n in names_in(inner)]
        if not names or not isinstance(inner, (cst.Subscript, cst.Attribute, cst.Name)):
            return None
        for name in names[:1]:  # the root of ``solution.ts[-1]``
            bindings = self.flow.reaching(name, scope)
            if not bindings or not all(b.frame is not None and b.frame.is_inside(loop) and b.kind == "assign"
                                       and isinstance(assigned(b).value, cst.Call) for b in bindings):
                return None
        return None, (f"`{cst.Module([]).code_for_node(expr)}`, a Python number read from a result the "
                      f"loop computes on every iteration")

    def _choice_varies(self, expr: cst.IfExp, scope: Scope, loop, depth: int):
        """``n = step + 1 if step > 0 else 1``: a conditional expression.  With a test that
        does not change in the loop the same branch is taken every time, so both must vary;
        with a test that changes, one varying branch (the other loop-invariant) is enough."""
        body = self._varies(expr.body, scope, loop, depth + 1)
        orelse = self._varies(expr.orelse, scope, loop, depth + 1)
        if body and orelse:
            return body
        test_varies = any(self._varies(n, scope, loop, depth + 1) for n in names_in(expr.test))
        if not test_varies:
            return None
        if body and self.invariant(expr.orelse, scope, loop):
            return body
        if orelse and self.invariant(expr.body, scope, loop):
            return orelse
        return None

    def _name_varies(self, name: cst.Name, scope: Scope, loop, depth: int):
        bindings = self.flow.reaching(name, scope)
        if not bindings:
            return None
        inside = [b for b in bindings if b.frame is not None and b.frame.is_inside(loop)
                  or b.node is loop or _in_comp(loop, b.node)]
        if not inside:
            return None
        if len(bindings) == 1 and _is_counter(bindings[0], loop, self.model):
            return name.value, f"the loop counter `{name.value}`"
        if len(bindings) == 1 and _float_sweep(bindings[0], loop, self.flow):
            return None, f"`{name.value}`, taken from a list of different floats (a sweep)"
        # the start value before the loop reaches the update's own read, if not this one
        # (``lr *= 0.9`` before the read in the loop body; a reset ``i = 0`` in the loop first: none)
        outside = [b for b in carried(self.flow, bindings, name.value) if b not in inside
                   and not (b.frame is not None and b.frame.is_inside(loop))]
        if any(conditional_within(b, loop) for b in inside):
            return None  # ``if plateau: lr *= 0.5`` changes now and then, not every iteration
        if any(self._starts_as_array(b) for b in outside):
            return None  # ``lr = jnp.asarray(0.5)``, then ``lr = lr * 0.9``: an array throughout
        found = None
        for binding in inside:
            value = assigned(binding)
            if value.augmented is not None:
                op = value.augmented.operator
                if not isinstance(op, (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign,
                                       cst.DivideAssign, cst.PowerAssign, cst.FloorDivideAssign)) \
                        or not self.invariant(value.augmented.value, binding.scope, loop) \
                        or not outside:
                    return None
                update = " ".join(cst.Module([]).code_for_node(value.augmented).split())
                found = found or (None, f"`{name.value}`, updated in the loop (`{update}`)")
                continue
            if value.value is None:
                return None
            inner = self._varies(value.value, binding.scope, loop, depth + 1)
            if inner is None:
                inner = self._self_update(value.value, name.value, binding.scope, loop, outside)
            if inner is None:
                return None
            counter, how = inner
            if counter is not None and not how.startswith("`"):
                how = f"`{name.value}`, computed from the loop counter `{counter}`"
            found = found or (counter, how)
        return found

    def _starts_as_array(self, binding: Binding) -> bool:
        """The value set before the loop is an array (``jnp.asarray(0.5)``): updated from
        itself it stays one, no Python scalar."""
        value = assigned(binding).value if binding.kind == "assign" else None
        return isinstance(value, cst.Call) and array_made_by(self.model, value, binding.scope) is not None

    def _self_update(self, value, name: str, scope: Scope, loop, outside) -> Optional[tuple[None, str]]:
        """``lr = lr * 0.9`` in the loop, with ``lr`` set before it: a new value every time."""
        if not outside or not isinstance(value, cst.BinaryOperation) \
                or not isinstance(value.operator, ARITHMETIC):
            return None
        sides = (value.left, value.right)
        mine = [s for s in sides if isinstance(s, cst.Name) and s.value == name]
        if len(mine) != 1:
            return None
        other = sides[1] if mine[0] is sides[0] else sides[0]
        if not self.invariant(other, scope, loop) or _neutral(other, value.operator):
            return None
        return None, f"`{name}`, updated from itself in the loop"

    def _attribute_varies(self, attr: cst.Attribute, scope: Scope, loop) -> Optional[tuple[None, str]]:
        """``cfg.lr`` written on every iteration of ``loop`` (not under an ``if`` in it) from
        itself: ``cfg.lr *= 0.9`` or ``cfg.lr = cfg.lr * 0.9``, with ``cfg`` not rebound there."""
        if not isinstance(attr.value, cst.Name) or not self.invariant(attr.value, scope, loop) \
                or attr.attr.value not in self._number_attributes():
            return None
        text = code_text(attr)
        assigns = {id(t): small for small in statements_in(loop) if isinstance(small, cst.Assign)
                   for t in small.targets}
        found = None
        for root, frame, write in self.model.item_writes:
            if root != attr.value.value or frame.scope is not scope or not frame.is_inside(loop):
                continue
            target = write.target
            if code_text(target) != text:
                continue
            if any(isinstance(f.node, cst.If) for f in _frames_within(frame, loop)):
                return None  # ``if plateau: cfg.lr *= 0.5`` changes now and then
            if isinstance(write, cst.AugAssign):
                if not isinstance(write.operator, (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign,
                                                   cst.DivideAssign, cst.PowerAssign, cst.FloorDivideAssign)) \
                        or not self.invariant(write.value, scope, loop):
                    return None
                found = found or (None, f"`{text}`, updated in the loop (`{code_text(write)}`)")
                continue
            statement = assigns.get(id(write))
            value = statement.value if statement is not None else None
            if value is not None and all(code_text(n) != attr.value.value for n in names_in(value)):
                # ``schedule.degree = step + 1``: set from a value new on every iteration
                inner = self._varies(value, scope, loop, 1)
                if inner is None:
                    return None
                found = found or (None, f"`{text}`, set in the loop from {inner[1]}")
                continue
            if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, ARITHMETIC)
                    and sum(code_text(side) == text for side in (value.left, value.right)) == 1
                    and all(code_text(side) == text or self.invariant(side, scope, loop)
                            for side in (value.left, value.right))
                    and not any(_neutral(side, value.operator) for side in (value.left, value.right))):
                return None
            found = found or (None, f"`{text}`, updated from itself in the loop")
        return found

    def attribute_value(self, attr: cst.Attribute, scope: Scope, loop) -> Optional[cst.BaseExpression]:
        """The one value written to ``cfg.x`` on every iteration of ``loop`` (``cfg.x = v``,
        not under an ``if`` in it; ``cfg`` not rebound there), or None."""
        if not isinstance(attr.value, cst.Name) or not self.invariant(attr.value, scope, loop):
            return None
        text = code_text(attr)
        assigns = {id(t): small for small in statements_in(loop) if isinstance(small, cst.Assign)
                   for t in small.targets}
        found = []
        for root, frame, write in self.model.item_writes:
            if root != attr.value.value or frame.scope is not scope or not frame.is_inside(loop) \
                    or code_text(write.target) != text:
                continue
            statement = assigns.get(id(write))
            if statement is None or len(statement.targets) != 1 \
                    or any(isinstance(f.node, cst.If) for f in _frames_within(frame, loop)):
                return None
            found.append(statement.value)
        return found[0] if len(found) == 1 else None

    def _number_attributes(self) -> frozenset[str]:
        """Attribute names this module sets to a number literal (``self.lr = 0.1``, a class
        field ``lr: float = 0.1``): an attribute updated in a loop is a Python scalar only then."""
        if self._numbers is None:
            names = set()
            for node in iter_nodes(self.model.module):
                if isinstance(node, cst.Assign) and _number(node.value):
                    names.update(t.target.attr.value for t in node.targets
                                 if isinstance(t.target, cst.Attribute))
                elif isinstance(node, cst.AnnAssign) and node.value is not None and _number(node.value):
                    target = node.target
                    names.add(target.attr.value if isinstance(target, cst.Attribute) else
                              target.value if isinstance(target, cst.Name) else "")
            self._numbers = frozenset(names)
        return self._numbers

    def _returned_varies(self, call: cst.Call, scope: Scope, loop, depth: int
                         ) -> Optional[tuple[Optional[str], str]]:
        """``schedule(step)`` where ``schedule`` is a function of this module that returns
        arithmetic of its parameters (``return base * decay ** t``) and the argument for one of
        them changes on every iteration while the others do not."""
        binding = self.flow.single(call.func, scope)  # type: ignore[arg-type]
        if binding is None or binding.kind != "def" or any(a.star or a.keyword for a in call.args):
            return None
        function = binding.node
        assert isinstance(function, cst.FunctionDef)
        params = [p.name.value for p in (*function.params.posonly_params, *function.params.params)]
        returned = _returned_expression(function)
        if returned is None or len(call.args) > len(params) or function.decorators:
            return None
        if not _arithmetic_of_names(returned, trip_count(loop)):
            return None
        arguments = dict(zip(params, (a.value for a in call.args)))
        found = None
        function_scope = self.model.functions[function].scope if function in self.model.functions else None
        for name in names_in(returned):
            if name.value not in arguments:
                if name.value in params:
                    return None  # a default: fine, but not followed
                continue  # a global of that module: the same every iteration unless rebound
            inner = self._varies(arguments[name.value], scope, loop, depth + 1)
            if inner is None:
                if not self.invariant(arguments[name.value], scope, loop):
                    return None
                continue
            found = found or inner
        if found is None or function_scope is None:
            return None
        return found[0], f"`{code_text(call)}`, returned by `{function.name.value}` from {found[1]}"

    def _constructed_varies(self, call: cst.Call, scope: Scope, loop, depth: int
                            ) -> Optional[tuple[Optional[str], str]]:
        """``Options(degree=step + 1)``: an instance of a class of this module (a config
        dataclass, a NamedTuple) built with an argument that changes on every iteration, the
        others loop-invariant; hashed by its fields, or by identity, it is new every time.  Also
        one a class method or static method of the class builds (``ContactParams.build(K=K)``)."""
        if not self._objects:
            return None
        func = call.func
        factory = isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
        binding = self.flow.single(func.value if factory else func, scope)  # type: ignore[arg-type,union-attr]
        if binding is None or binding.kind != "class" or any(a.star for a in call.args):
            return None
        if factory and not _builds_own_class(binding.node, func.attr.value):  # type: ignore[union-attr]
            return None
        found = None
        for arg in call.args:
            inner = self._varies(arg.value, scope, loop, depth + 1)
            if inner is None:
                if not self.invariant(arg.value, scope, loop):
                    return None
                continue
            found = found or inner
        if found is None:
            return None
        return found[0], f"`{code_text(call)}`, built from {found[1]}"

    def invariant(self, expr: cst.BaseExpression, scope: Scope, loop) -> bool:
        """A number or a name (or ``name.attr``) not rebound inside ``loop``."""
        if isinstance(expr, (cst.Integer, cst.Float)):
            return True
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
            return self.invariant(expr.expression, scope, loop)
        if isinstance(expr, cst.Attribute):
            return isinstance(expr.value, (cst.Name, cst.Attribute)) and self.invariant(expr.value, scope, loop)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, ARITHMETIC):
            return self.invariant(expr.left, scope, loop) and self.invariant(expr.right, scope, loop)
        if isinstance(expr, cst.Name):
            bindings = self.flow.reaching(expr, scope)
            return bool(bindings) and all(
                not (b.frame is not None and b.frame.is_inside(loop)) and b.node is not loop
                and not _in_comp(loop, b.node) for b in bindings)
        return False

    def grows(self, name: cst.Name, scope: Scope, loop) -> bool:
        """A list created before ``loop`` and appended to (never shrunk) inside it."""
        bindings = self.flow.reaching(name, scope)
        if not bindings or any(b.frame is None or b.frame.is_inside(loop) for b in bindings):
            return False
        for binding in bindings:
            value = assigned(binding).value
            if not (isinstance(value, (cst.List, cst.ListComp)) or (
                    isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
                    and value.func.value == "list")):
                return False
        grows = shrinks = False
        for site in self.model.calls:
            func = site.node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                    and func.value.value == name.value and site.frame.is_inside(loop) \
                    and site.frame.scope is scope:
                if func.attr.value in GROW_METHODS:
                    grows = True
                elif func.attr.value in ("pop", "remove", "clear", "popleft"):
                    shrinks = True
        return grows and not shrinks

    def gains_keys(self, name: cst.Name, scope: Scope, loop) -> Optional[str]:
        """How a dict created before ``loop`` gains a new key on every iteration of it (None:
        it does not): ``d[f"layer{i}"] = w``, ``d.update({k: v})`` or ``d = {**d, k: v}`` with
        a key that changes per iteration, and no ``pop``/``del``/``clear``/reset in the loop.
        A loop of at most 3 iterations (literal ``range(3)`` or list) is a bounded warm-up: None."""
        if _small_literal_range(loop, self.model, scope):
            return None
        found = list(self.flow.reaching(name, scope))
        for binding in found:  # ``d = {**d, k: v}``: back through its own read of ``d``
            value = assigned(binding).value
            if isinstance(value, cst.Dict) and binding.frame is not None and binding.frame.is_inside(loop):
                for element in value.elements:
                    if isinstance(element, cst.StarredDictElement) and isinstance(element.value, cst.Name) \
                            and element.value.value == name.value:
                        found.extend(b for b in self.flow.reaching(element.value, binding.scope)
                                     if b not in found)
        inside = [b for b in found if b.frame is None or b.frame.is_inside(loop) or b.node is loop]
        outside = [b for b in found if b not in inside]
        if not outside or not all(_makes_dict(assigned(b).value) for b in outside):
            return None
        how = None
        for binding in inside:
            value = assigned(binding).value
            merged = [e for e in value.elements if isinstance(e, cst.DictElement)] \
                if isinstance(value, cst.Dict) and any(
                    isinstance(e, cst.StarredDictElement) and isinstance(e.value, cst.Name)
                    and e.value.value == name.value for e in value.elements) else None
            if not merged or not any(self._new_key(e.key, binding.scope, loop) for e in merged):
                return None  # reset or replaced in the loop
            how = how or f"`{name.value} = {{**{name.value}, ...}}`"
        for site in self.model.calls:  # d.update(...) / shrinking methods, in this loop
            func = site.node.func
            if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                    and func.value.value == name.value and site.frame.scope is scope
                    and site.frame.is_inside(loop)):
                continue
            if func.attr.value in ("pop", "popitem", "clear"):
                return None
            if func.attr.value in ("update", "setdefault") and site.node.args:
                first = site.node.args[0]
                if func.attr.value == "setdefault":
                    keys = [first.value]
                elif first.keyword is None and isinstance(first.value, cst.Dict):
                    keys = [e.key for e in first.value.elements if isinstance(e, cst.DictElement)]
                else:
                    keys = []  # ``update(loss=x)``: keywords are fixed keys
                if any(self._new_key(k, scope, loop) for k in keys):
                    how = how or f"`{name.value}.{func.attr.value}(...)`"
        for statement in statements_in(loop):
            if isinstance(statement, cst.Del) and any(n.value == name.value for n in names_in(statement.target)):
                return None
            if isinstance(statement, cst.Assign):
                for target in statement.targets:
                    sub = target.target
                    if isinstance(sub, cst.Subscript) and isinstance(sub.value, cst.Name) \
                            and sub.value.value == name.value and len(sub.slice) == 1 \
                            and isinstance(sub.slice[0].slice, cst.Index) \
                            and self._new_key(sub.slice[0].slice.value, scope, loop):
                        how = how or f"`{code_text(sub)} = ...`"
        return how

    def _new_key(self, key: cst.BaseExpression, scope: Scope, loop) -> bool:
        """A key that is different on every iteration: the loop counter or a value that varies
        per iteration (``i``, ``f"layer{i}"``, ``str(step)``), or the loop's own target (``for
        name, w in ...``).  ``i % 3`` or ``keys[i]`` may repeat: not new."""
        if isinstance(key, cst.FormattedString):
            return any(isinstance(part, cst.FormattedStringExpression)
                       and self._new_key(part.expression, scope, loop) for part in key.parts)
        if isinstance(key, cst.Call) and isinstance(key.func, cst.Name) and key.func.value == "str" \
                and len(key.args) == 1 and not self.model.lookup("str", scope):
            return self._new_key(key.args[0].value, scope, loop)
        if self._varies(key, scope, loop, 0) is not None:
            return True
        return isinstance(key, cst.Name) and any(
            b.kind == "loop-target" and (b.node is loop or _in_comp(loop, b.node))
            for b in self.flow.reaching(key, scope))


def conditional_within(binding: Binding, loop: cst.CSTNode) -> bool:
    """The binding sits under an ``if`` inside ``loop``: it runs on some iterations only."""
    if binding.frame is None:
        return False
    for frame in binding.frame:
        if frame.node is loop:
            return False
        if isinstance(frame.node, cst.If):
            return True
    return False


def _neutral(expr: cst.BaseExpression, op) -> bool:
    """``x * 1`` / ``x + 0``: the same value again."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        value = float(expr.evaluated_value)
        if isinstance(op, (cst.Add, cst.Subtract)):
            return value == 0
        return value == 1
    return False


def _in_comp(loop: cst.CSTNode, node: cst.CSTNode) -> bool:
    if not isinstance(loop, LOOP_TYPES) or isinstance(loop, (cst.For, cst.While)):
        return False
    current = loop.for_in  # type: ignore[attr-defined]
    while current is not None:
        if current is node:
            return True
        current = current.inner_for_in
    return False


def _float_sweep(binding: Binding, loop: cst.CSTNode, flow: ValueFlow) -> bool:
    """``for lr in [1e-3, 3e-3, 1e-2]`` (or ``for i, lr in enumerate(...)``, ``zip``; see
    ``loop_elements``): a different Python float on every iteration.  Ints and strings are left
    alone: they are often structural (a layer count, a mode) and must be static."""
    if binding.node is not loop or not isinstance(loop, cst.For):
        return False
    elements = loop_elements(binding, flow)
    if elements is None:
        return False
    values = []
    for element in elements:
        value = element
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
            value = value.expression
        if not isinstance(value, cst.Float):
            return False
        values.append(cst.Module([]).code_for_node(element))
    return len(values) >= 2 and len(set(values)) == len(values)


def float_values(model: SemanticModel, flow: ValueFlow, iterable: cst.BaseExpression, scope: Scope,
                 depth: int = 0) -> bool:
    """A loop over ``iterable`` takes floats, data values that can never size an array:
    ``jnp.linspace(0.1, 1.0, 10)`` (jaxfacts.FLOAT_RANGES, no ``dtype=``), ``np.arange(0, 2.1,
    0.5)`` (a float bound), a display of numbers with a float among them (``[0.0, 1, 1e1]``),
    an array of one (``np.asarray([...])``) or a concatenation of such (``np.concatenate(
    [train_mus, test_mus])``: hflow's interaction strengths), each written in the loop or bound
    once to the name it iterates."""
    if depth > 3:
        return False
    made = origin(flow, iterable, scope, None)
    if made is None:
        return False
    iterable, scope = made[0], made[1]  # type: ignore[assignment]
    if isinstance(iterable, (cst.List, cst.Tuple)):
        elements = [e.value for e in iterable.elements if isinstance(e, cst.Element)]
        return len(elements) >= 2 and len(elements) == len(iterable.elements) \
            and all(_number(e) for e in elements) and any(_float_literal(e) for e in elements)
    if not isinstance(iterable, cst.Call) or any(a.keyword is not None and a.keyword.value == "dtype"
                                                 for a in iterable.args):
        return False
    qualname = model.qualified_name(iterable.func, scope)
    if qualname in FLOAT_RANGES:
        return True
    if qualname in FLOAT_WHEN_FLOAT_BOUND_RANGES:
        return any(_float_literal(a.value) for a in iterable.args)
    positional = [a.value for a in iterable.args if a.keyword is None and not a.star]
    if len(positional) != len(iterable.args) or len(positional) != 1:
        return False
    if qualname in SHAPE_JOINING_CALLS and SHAPE_JOINING_CALLS[qualname] is not None:  # along axis 0
        parts = positional[0]
        return isinstance(parts, (cst.List, cst.Tuple)) and bool(parts.elements) and all(
            isinstance(e, cst.Element) and float_values(model, flow, e.value, scope, depth + 1)
            for e in parts.elements)
    return array_made_by(model, iterable, scope) is not None \
        and float_values(model, flow, positional[0], scope, depth + 1)  # ``np.asarray([0.1, 1.0])``


def _float_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, cst.Float)


def loop_elements(binding: Binding, flow: ValueFlow) -> Optional[list[cst.BaseExpression]]:
    """The literal values a loop target takes, one per iteration, however the loop spells its
    iteration: ``for n in [5, 8, 10]``, ``for i, n in enumerate([5, 8, 10])``, ``for a, b in
    zip([...], [...])``, ``for a, b in [(1, 2.0), (3, 4.0)]``, the list bound to a local name
    before the loop (``sizes = [5, 8, 10]`` ... ``for n in sizes``).  None: not a loop over a
    literal sequence (or ``binding`` is no loop target)."""
    node = binding.node
    if binding.kind != "loop-target" or not isinstance(node, (cst.For, cst.CompFor)):
        return None
    return _target_elements(node.target, node.iter, binding.name, binding.scope, flow, 0)


def _literal_sequence(expr: cst.BaseExpression, scope: Scope, flow: ValueFlow
                      ) -> Optional[list[cst.BaseExpression]]:
    if isinstance(expr, cst.Name):  # ``sizes = [5, 8, 10]`` before the loop
        binding = flow.single(expr, scope)
        if binding is not None and binding.kind == "assign" and isinstance(binding.node, cst.Assign) \
                and len(binding.node.targets) == 1 and isinstance(binding.node.targets[0].target, cst.Name):
            expr = binding.value  # type: ignore[assignment]
    if isinstance(expr, cst.Call) and len(expr.args) == 1 and not expr.args[0].keyword \
            and array_made_by(flow.model, expr, scope) is not None:
        expr = expr.args[0].value  # ``jnp.asarray([94, 92, 97])``: iterated element by element
    if isinstance(expr, (cst.List, cst.Tuple)) \
            and not any(isinstance(e, cst.StarredElement) for e in expr.elements):
        return [e.value for e in expr.elements]
    comp = expr.for_in if isinstance(expr, cst.ListComp) else None
    if comp is not None and comp.inner_for_in is None and not comp.ifs and isinstance(comp.target, cst.Name):
        # ``[(load(n), n) for n in (50, 80, 120)]``: the element once per item
        items = _literal_sequence(comp.iter, scope, flow)
        if items is not None:
            return [substituted(expr.elt, {comp.target.value: item}) for item in items]  # type: ignore[union-attr]
    return None


class _Substitute(cst.CSTTransformer):
    def __init__(self, values: dict[str, cst.BaseExpression]) -> None:
        super().__init__()
        self.values = values

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.values.get(original.value, updated)


def substituted(expr: cst.BaseExpression, values: dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    """A copy of ``expr`` with ``values`` in place of the names they are keyed by (a function's
    returned expression with the caller's arguments, a comprehension's element per item)."""
    return expr.visit(_Substitute(values))  # type: ignore[return-value]


def _dict_view(iterable: cst.BaseExpression, scope: Scope, flow: ValueFlow
               ) -> Optional[tuple[str, list[tuple[cst.BaseExpression, cst.BaseExpression]]]]:
    """(``items`` | ``values``, the key-value pairs) of ``D.items()`` / ``D.values()`` where
    ``D`` is a dict display (bound once to a local name before the loop)."""
    if not (isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and not iterable.args
            and iterable.func.attr.value in ("items", "values")):
        return None
    mapping = iterable.func.value
    if isinstance(mapping, cst.Name):
        binding = flow.single(mapping, scope)
        mapping = binding.value if binding is not None and binding.kind == "assign" \
            and isinstance(binding.node, cst.Assign) and len(binding.node.targets) == 1 else None
    if not isinstance(mapping, cst.Dict) or any(not isinstance(e, cst.DictElement) for e in mapping.elements):
        return None
    return iterable.func.attr.value, [(e.key, e.value) for e in mapping.elements]


def _target_elements(target: cst.BaseExpression, iterable: cst.BaseExpression, name: str, scope: Scope,
                     flow: ValueFlow, depth: int) -> Optional[list[cst.BaseExpression]]:
    if depth > 3:
        return None
    mapping = _dict_view(iterable, scope, flow)  # ``for name, factor in sweep.items()``
    if mapping is not None:
        view, pairs = mapping
        if view == "values" and isinstance(target, cst.Name) and target.value == name:
            return [value for _, value in pairs]
        if view == "items" and isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2:
            key, value = (e.value for e in target.elements)
            if isinstance(value, cst.Name) and value.value == name:
                return [v for _, v in pairs]
            if isinstance(key, cst.Name) and key.value == name:
                return [k for k, _ in pairs]
        return None
    if isinstance(target, cst.Name):
        return _literal_sequence(iterable, scope, flow) if target.value == name else None
    if not isinstance(target, (cst.Tuple, cst.List)) \
            or any(isinstance(e, cst.StarredElement) for e in target.elements):
        return None
    parts = [e.value for e in target.elements]
    if isinstance(iterable, cst.Call):
        func = iterable.func
        if not isinstance(func, cst.Name) or flow.model.lookup(func.value, scope) \
                or any(a.keyword or a.star for a in iterable.args):
            return None
        if func.value == "enumerate" and len(parts) == 2 and len(iterable.args) == 1:
            return _target_elements(parts[1], iterable.args[0].value, name, scope, flow, depth + 1)
        if func.value == "zip" and len(parts) == len(iterable.args):
            for part, arg in zip(parts, iterable.args):
                found = _target_elements(part, arg.value, name, scope, flow, depth + 1)
                if found is not None:
                    return found
        return None
    rows = _literal_sequence(iterable, scope, flow)
    if rows is None:
        return None
    found: list[cst.BaseExpression] = []
    for row in rows:  # ``for a, b in [(1, 2.0), (3, 4.0)]``
        if not isinstance(row, (cst.Tuple, cst.List)) or len(row.elements) != len(parts):
            return None
        for part, item in zip(parts, row.elements):
            if isinstance(part, cst.Name) and part.value == name:
                found.append(item.value)
    return found if len(found) == len(rows) else None


def _is_counter(binding: Binding, loop: cst.CSTNode, model: SemanticModel) -> bool:
    """``for i in range(...)`` / ``for i, x in enumerate(...)`` of ``loop``: i is its counter."""
    node = binding.node
    if binding.kind != "loop-target" or not (node is loop or _in_comp(loop, node)):
        return False
    return counts(binding, model)


def counts(binding: Binding, model: SemanticModel) -> bool:
    """The loop target ``binding`` is its loop's int counter: ``for i in range(...)``, ``for i,
    x in enumerate(...)``, or a ``range`` bound once to a name (``steps = range(1, 4)`` ...
    ``for i in steps``); also with a progress bar (``tqdm(range(n))``, ``trange(n)``, bound
    with ``:=`` too: ``for i in (pbar := tqdm.trange(n))``)."""
    node = binding.node
    if not isinstance(node, (cst.For, cst.CompFor)):
        return False
    iterable, target = node.iter, node.target
    if isinstance(iterable, cst.NamedExpr):
        iterable = iterable.value
    if isinstance(iterable, cst.Call) and iterable.args and iterable.args[0].keyword is None \
            and not iterable.args[0].star and model.qualified_name(iterable.func, binding.scope) in PASS_THROUGH:
        iterable = iterable.args[0].value
    if isinstance(iterable, cst.Call) and model.qualified_name(iterable.func, binding.scope) in RANGES_WITH_PROGRESS:
        return isinstance(target, cst.Name) and target.value == binding.name
    if isinstance(iterable, cst.Name):
        bound = model.lookup(iterable.value, binding.scope)
        if len(bound) == 1 and bound[0].kind == "assign" and isinstance(bound[0].value, cst.Call) \
                and isinstance(bound[0].value.func, cst.Name) and bound[0].value.func.value == "range" \
                and isinstance(bound[0].node, cst.Assign) and len(bound[0].node.targets) == 1:
            iterable = bound[0].value
    if not isinstance(iterable, cst.Call) or not isinstance(iterable.func, cst.Name) \
            or model.lookup(iterable.func.value, binding.scope):
        return False  # a user's own range/enumerate
    if iterable.func.value == "range":
        return isinstance(target, cst.Name) and target.value == binding.name
    if iterable.func.value == "enumerate" and isinstance(target, cst.Tuple) and target.elements:
        first = target.elements[0].value
        return isinstance(first, cst.Name) and first.value == binding.name
    return False


def _frames_within(frame, loop: cst.CSTNode):
    """The frames from ``frame`` out to (not including) ``loop``."""
    for f in frame:
        if f.node is loop:
            return
        yield f


def _number(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _returned_expression(function: cst.FunctionDef) -> Optional[cst.BaseExpression]:
    """What a def of simple statements returns, with its local names replaced by their values:
    ``slope = (end - start) / duration; return max(slope * t + start, end)`` gives
    ``max((end - start) / duration * t + start, end)``.  None for any other body."""
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    if not body or not all(isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 for s in body):
        return None
    *steps, last = [s.body[0] for s in body]  # type: ignore[union-attr]
    if not isinstance(last, cst.Return) or last.value is None:
        return None
    values: dict[str, cst.BaseExpression] = {}
    for step in steps:
        if not (isinstance(step, cst.Assign) and len(step.targets) == 1 and isinstance(step.targets[0].target, cst.Name)):
            return None
        values[step.targets[0].target.value] = substituted(step.value, values) if values else step.value
    return substituted(last.value, values) if values else last.value


def _arithmetic_of_names(expr: cst.BaseExpression, trips: Optional[int] = None) -> bool:
    """Numbers and names combined by arithmetic: ``base * decay ** t``, ``-t``, ``(t + 1) / 2``;
    ``t % k`` too when the loop runs at most ``trips`` <= ``k`` times (every value new); a clamp
    of such values, ``max(1.0 - t / 10, 0.05)`` (it changes until it reaches the bound)."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.Name)):
        return True
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("max", "min") \
            and len(expr.args) == 2 and not any(a.keyword or a.star for a in expr.args):
        return all(_arithmetic_of_names(a.value, trips) for a in expr.args)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        return _arithmetic_of_names(expr.expression, trips)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, ARITHMETIC):
        return _arithmetic_of_names(expr.left, trips) and _arithmetic_of_names(expr.right, trips)
    if isinstance(expr, cst.BinaryOperation) and _distinct_modulo(expr, trips):
        return _arithmetic_of_names(expr.left, trips)
    return False


def _distinct_modulo(expr: cst.BinaryOperation, trips: Optional[int]) -> bool:
    """``x % k`` with a literal ``k`` no smaller than the loop's literal trip count: as many
    distinct values as iterations."""
    return isinstance(expr.operator, cst.Modulo) and isinstance(expr.right, cst.Integer) \
        and trips is not None and 0 < trips <= int(expr.right.evaluated_value)


def trip_count(loop) -> Optional[int]:
    """How often ``for ... in range(<literals>)`` runs; None for any other loop."""
    if not isinstance(loop, cst.For) or not isinstance(loop.iter, cst.Call) \
            or not isinstance(loop.iter.func, cst.Name) or loop.iter.func.value != "range":
        return None
    args = [a.value for a in loop.iter.args]
    if not args or len(args) > 2 or not all(isinstance(a, cst.Integer) for a in args) \
            or any(a.keyword or a.star for a in loop.iter.args):
        return None
    bounds = [int(a.evaluated_value) for a in args]  # type: ignore[union-attr]
    return max(0, bounds[-1] - (bounds[0] if len(bounds) == 2 else 0))


def names_in(expr: cst.CSTNode) -> Iterator[cst.Name]:
    """Name nodes read in an expression (not attribute names, keywords or lambda bodies)."""
    stack = [expr]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            yield current
        elif isinstance(current, cst.Attribute):
            stack.append(current.value)
        elif isinstance(current, cst.Arg):
            stack.append(current.value)
        elif not isinstance(current, cst.Lambda):
            stack.extend(children(current))


# ---------------------------------------------------------------------------- where it is made
def _chunk_length(clamp: cst.Call, loop) -> bool:
    """``min(B, n - i)`` in ``for i in range(start, n, B)``: ``B`` on every pass but the last,
    which may be shorter; not a new value per iteration."""
    if not (isinstance(loop, cst.For) and isinstance(loop.target, cst.Name) and isinstance(loop.iter, cst.Call)
            and isinstance(loop.iter.func, cst.Name) and loop.iter.func.value == "range" and len(loop.iter.args) == 3
            and isinstance(clamp.func, cst.Name) and clamp.func.value == "min"):
        return False
    code = cst.Module([]).code_for_node
    _, stop, step = (code(a.value) for a in loop.iter.args)
    first, second = (a.value for a in clamp.args)
    for size, rest in ((first, second), (second, first)):
        if code(size) == step and isinstance(rest, cst.BinaryOperation) and isinstance(rest.operator, cst.Subtract) \
                and code(rest.left) == stop and isinstance(rest.right, cst.Name) and rest.right.value == loop.target.value:
            return True
    return False


def builtin_call(expr: Optional[cst.BaseExpression], name: str, model: SemanticModel, scope: Scope) -> bool:
    """``expr`` calls the builtin ``name`` (not a name the module binds)."""
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) \
        and expr.func.value == name and not model.lookup(name, scope)


def origin(flow: ValueFlow, expr: cst.BaseExpression, scope: Scope, frame,
           depth: int = 0) -> Optional[tuple[cst.CSTNode, Scope, object]]:
    """Where the value of ``expr`` is created, with its scope and frame: the expression itself,
    or for a name, the ``def`` or assigned expression of the one definition reaching the read
    (followed through ``g = f`` aliases).  None when several definitions reach it or unknown."""
    if not isinstance(expr, cst.Name):
        return expr, scope, frame
    if depth > 4:
        return None
    binding = flow.single(expr, scope)
    if binding is None or binding.frame is None:
        return None
    if binding.kind == "def":
        return binding.node, binding.scope, binding.frame
    value = assigned(binding).value
    if value is not None:
        return origin(flow, value, binding.scope, binding.frame, depth + 1)
    return None


# ---------------------------------------------------------------------------- what a call returns
@dataclass(frozen=True)
class Returned:
    """One value a call of a function of this module returns: the ``return`` expression, in
    the function's scope and the frame of the ``return``."""

    function: cst.FunctionDef
    value: cst.BaseExpression
    scope: Scope
    frame: object


def returned_values(model: SemanticModel, flow: ValueFlow, call: cst.Call, scope: Scope) -> list[Returned]:
    """What ``call`` may return when it calls, by name (or as a member of a namespace object,
    ``namespace_member``), a plain function of this module (one definition reaches the name;
    no decorator, not a generator): the value of each of its
    ``return`` statements.  Empty when unknown, or when some path returns nothing (or falls
    off the end: a body that does not end in ``return``/``raise``)."""
    func = call.func
    if isinstance(func, cst.Attribute):  # ``torch.utils.data.DataLoader(...)`` of a namespace
        member = namespace_member(model, flow, func, scope)
        if member is None:
            return []
        func, scope = member
    if not isinstance(func, cst.Name):
        return []
    binding = model.through_aliases(flow.single(func, scope))  # ``factory = make_fn``
    if binding is None or binding.kind != "def":
        return []
    function = binding.node
    if not isinstance(function, cst.FunctionDef) or function.decorators:
        return []
    return function_returns(model, function)


# Objects whose attributes are the keywords they were made with.
NAMESPACE_CONSTRUCTORS = frozenset({"types.SimpleNamespace", "argparse.Namespace"})


def namespace_member(model: SemanticModel, flow: ValueFlow, attr: cst.Attribute, scope: Scope,
                     depth: int = 0) -> Optional[tuple[cst.BaseExpression, Scope]]:
    """``torch.utils.data.DataLoader`` where ``torch = SimpleNamespace(utils=SimpleNamespace(
    data=...))`` (a name bound once): the expression the keyword was given, and its scope."""
    if depth > 6:
        return None
    value = attr.value
    if isinstance(value, cst.Attribute):
        outer = namespace_member(model, flow, value, scope, depth + 1)
        if outer is None:
            return None
        made, made_scope = outer
    elif isinstance(value, cst.Name):
        binding = flow.single(value, scope)
        if binding is None or binding.kind != "assign" or binding.value is None:
            return None
        made, made_scope = binding.value, binding.scope
    else:
        return None
    if not isinstance(made, cst.Call) or model.qualified_name(made.func, made_scope) not in NAMESPACE_CONSTRUCTORS:
        return None
    return next(((arg.value, made_scope) for arg in made.args
                 if arg.keyword is not None and arg.keyword.value == attr.attr.value), None)


def unpacked_call(binding: Binding) -> Optional[tuple[cst.Call, int, int]]:
    """``a, b = f(x)`` binding ``b``: the call, the name's position and the number of targets."""
    node = binding.node
    if not (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Call)
            and isinstance(node.targets[0].target, (cst.Tuple, cst.List))):
        return None
    names = target_names(node.targets[0].target)
    if binding.name not in names or any(isinstance(e, cst.StarredElement) for e in node.targets[0].target.elements):
        return None
    return node.value, names.index(binding.name), len(names)


def tuple_elements(returns: list[Returned], position: int, arity: int) -> list[tuple[cst.BaseExpression, Scope]]:
    """The element at ``position`` of each returned tuple display of ``arity`` elements (what
    ``a, b = f()`` binds to the name at that position); returns of other shapes give nothing."""
    return [(r.value.elements[position].value, r.scope) for r in returns
            if isinstance(r.value, cst.Tuple) and len(r.value.elements) == arity
            and not any(isinstance(e, cst.StarredElement) for e in r.value.elements)]


def bound_values(model: SemanticModel, flow: ValueFlow, binding: Binding) -> list[tuple[cst.BaseExpression, Scope]]:
    """What an assignment binding gives its name: the assigned expression, or for ``a, b =
    f()`` (``f`` a plain function of this module) the element at the name's position of each
    tuple ``f`` returns (empty when unknown)."""
    value = assigned(binding).value
    if value is not None:
        return [(value, binding.scope)]
    unpacked = unpacked_call(binding)
    if unpacked is None:
        return []
    call, position, arity = unpacked
    return tuple_elements(returned_values(model, flow, call, binding.scope), position, arity)


def returned_made_function(model: SemanticModel, flow: ValueFlow, call: cst.Call, scope: Scope,
                           function: Optional[cst.FunctionDef] = None) -> Optional[cst.CSTNode]:
    """``make_schedule(0.9)``: the def or lambda the called module function (or ``function``,
    the method a call runs) creates and returns on every ``return`` (a new function per call);
    None when some return gives anything else."""
    found = None
    returns = function_returns(model, function) if function is not None else returned_values(model, flow, call, scope)
    for returned in returns:
        made = model.value_origin(returned.value, returned.scope, returned.frame)  # type: ignore[arg-type]
        if made is None or not isinstance(made[0], (cst.FunctionDef, cst.Lambda)) \
                or not any(f.node is returned.function for f in made[2]):
            return None
        found = found or made[0]
    return found


def returned_branches(model: SemanticModel, flow: ValueFlow, call: cst.Call, scope: Scope) -> list[cst.BaseExpression]:
    """The expressions ``call`` may return (returned_values), each branch of a conditional
    expression apart (``return jax.pmap(f) if ddp else jax.jit(f)``)."""
    found: list[cst.BaseExpression] = []
    for returned in returned_values(model, flow, call, scope):
        value = returned.value
        found += [value.body, value.orelse] if isinstance(value, cst.IfExp) else [value]
    return found


def function_returns(model: SemanticModel, function: cst.FunctionDef) -> list[Returned]:
    """The value of each ``return`` statement of ``function`` (empty as for returned_values)."""
    if function.asynchronous:
        return []
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    if not (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))):
        return []
    inner = model.scope_of.get(function)
    found = []
    for statement, frame in model.returns:
        if frame.enclosing_function() is not function:
            continue
        if statement.value is None or inner is None:
            return []
        found.append(Returned(function, statement.value, inner, frame))
    if any(isinstance(node, (cst.Yield, cst.Await)) for node in own_nodes(function.body)):
        return []  # a generator (or coroutine) returns an iterator, not these values
    return found


# ---------------------------------------------------------------------------- what a call makes
ARRAY_CONSTRUCTORS = frozenset({
    "array", "asarray", "zeros", "ones", "full", "empty", "arange", "linspace", "eye", "identity",
    "zeros_like", "ones_like", "full_like", "empty_like", "stack", "concatenate",
})
# NumPy random draws shaped by their positional arguments (``np.random.randn(20, 3)``; with none
# they return a Python float); every other draw returns an array when given ``size=``.
SHAPED_BY_POSITION_DRAWS = frozenset({"randn", "rand", "standard_normal", "random", "random_sample", "sample"})


def _sized_draw(call: cst.Call, last: str) -> bool:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return (last in SHAPED_BY_POSITION_DRAWS and bool(positional)) or any(
        a.keyword is not None and a.keyword.value == "size" and not (
            isinstance(a.value, cst.Name) and a.value.value == "None") for a in call.args)


# jax.numpy functions whose result is not an array (everything else there returns a jax Array;
# measured: even jnp.float32(1.0) is an Array, and hash() of any Array raises TypeError).
NOT_ARRAYS = frozenset({
    "dtype", "shape", "ndim", "size", "result_type", "issubdtype", "iinfo", "finfo",
    "promote_types", "can_cast", "isscalar", "iscomplexobj", "isrealobj", "isdtype", "vectorize",
    "frompyfunc", "printoptions", "set_printoptions", "get_printoptions", "broadcast_shapes",
})


def array_made_by(model: SemanticModel, call: cst.Call, scope: Scope) -> Optional[str]:
    """'a NumPy array' / 'a jax Array' when the call certainly returns one: a NumPy
    constructor, any ``jax.numpy`` function that computes values, any ``jax.random`` draw."""
    qualname = model.qualified_name(call.func, scope)
    if qualname is None:
        return None
    last = qualname.rsplit(".", 1)[-1]
    if qualname.startswith("numpy.") and last in ARRAY_CONSTRUCTORS:
        return "a NumPy array"
    if qualname.startswith("numpy.random.") and _sized_draw(call, last):
        return "a NumPy array"
    if qualname.startswith("jax.numpy.") and last not in NOT_ARRAYS and last[:1].islower():
        return "a jax Array"
    if qualname.startswith("jax.random.") and last[:1].islower() or qualname in ARRAY_RETURNING_KEY_FUNCTIONS:
        return "a jax Array"
    return None


def jax_array_built_by(flow: "ValueFlow", expr: cst.BaseExpression, scope: Scope, depth: int = 0
                       ) -> Optional[cst.Call]:
    """The call that builds ``expr`` as a jax array, when the code shows it is one: a
    ``jax.numpy`` constructor (``jnp.zeros(n)``, ``jnp.array(...)``, ARRAY_CONSTRUCTORS) or a
    ``jax.random`` draw, arithmetic on one, or a name every reaching definition binds so.  Not
    what functions of other namespaces return (a ``lax.scan`` carry may be a dict)."""
    model = flow.model
    if depth > 3:
        return None
    if isinstance(expr, cst.Call):
        qualname = model.qualified_name(expr.func, scope) or ""
        # of the jax.numpy functions, only the constructors: ``jnp.split`` returns a list
        jax_made = array_made_by(model, expr, scope) == "a jax Array" and (
            not qualname.startswith("jax.numpy.") or qualname.rpartition(".")[2] in ARRAY_CONSTRUCTORS)
        return expr if jax_made else None
    if isinstance(expr, cst.BinaryOperation):
        return jax_array_built_by(flow, expr.left, scope, depth + 1) or jax_array_built_by(flow, expr.right, scope, depth + 1)
    if not isinstance(expr, cst.Name):
        return None
    bindings = flow.reaching(expr, scope)
    made = [jax_array_built_by(flow, b.value, b.scope, depth + 1) if b.kind == "assign" and b.value is not None
            else None for b in bindings]  # (``x += 1`` binds "other", a loop target "loop-target")
    return made[0] if made and all(m is not None for m in made) else None


def elementwise_operands(expr: cst.BaseExpression) -> Optional[list[cst.BaseExpression]]:
    """The operands of an arithmetic, bitwise or comparison operation (``a < 4``, ``~m``,
    ``x * 2``): with an array among them the result is an array of the same kind. None for
    anything else, and for operations whose result is a Python bool or str whatever the operands
    (``not``, ``is``, ``in``, ``"%s" % x``)."""
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, cst.Modulo) and isinstance(expr.left, (cst.SimpleString, cst.FormattedString)):
            return None
        return [expr.left, expr.right]
    if isinstance(expr, cst.UnaryOperation):
        return None if isinstance(expr.operator, cst.Not) else [expr.expression]
    if isinstance(expr, cst.Comparison):
        if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in expr.comparisons):
            return None
        return [expr.left, *(c.comparator for c in expr.comparisons)]
    return None


def _makes_dict(value: Optional[cst.BaseExpression]) -> bool:
    """``{...}``, ``{k: v for ...}`` or ``dict(...)``: a new dict."""
    return isinstance(value, (cst.Dict, cst.DictComp)) or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict")


def _small_literal_range(loop: cst.CSTNode, model: SemanticModel, scope: Scope) -> bool:
    """``for ... in range(2)`` / ``in ("a", "b")``: at most 3 iterations, a bounded warm-up."""
    if isinstance(loop, cst.For) and isinstance(loop.iter, (cst.List, cst.Tuple)):
        return len(loop.iter.elements) <= 3 and not any(
            isinstance(e, cst.StarredElement) for e in loop.iter.elements)
    if not isinstance(loop, cst.For) or not isinstance(loop.iter, cst.Call):
        return False
    func, args = loop.iter.func, loop.iter.args
    if not isinstance(func, cst.Name) or func.value != "range" or model.lookup("range", scope) \
            or not args or not all(isinstance(a.value, cst.Integer) for a in args):
        return False
    bounds = [int(a.value.evaluated_value) for a in args]  # type: ignore[union-attr]
    return len(range(*bounds)) <= 3


def statements_in(loop: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The small statements of a loop body, not those of nested functions or classes."""
    stack = list(children(loop))
    while stack:
        current = stack.pop()
        if isinstance(current, cst.BaseSmallStatement):
            yield current
        elif not isinstance(current, _NESTED) and isinstance(current, (cst.BaseSuite, cst.BaseCompoundStatement,
                                                                        cst.SimpleStatementLine, cst.Else)):
            stack.extend(children(current))


def code_text(node: cst.CSTNode) -> str:
    """The node as code on one line (whitespace collapsed), to compare two spellings."""
    return " ".join(cst.Module([]).code_for_node(node).split())


_INT_OPERATORS = {cst.Add: lambda a, b: a + b, cst.Subtract: lambda a, b: a - b,
                  cst.Multiply: lambda a, b: a * b, cst.FloorDivide: lambda a, b: a // b if b else None,
                  cst.Modulo: lambda a, b: a % b if b else None,
                  cst.Power: lambda a, b: a ** b if 0 <= b <= 256 else None,
                  cst.LeftShift: lambda a, b: a << b if 0 <= b <= 256 else None,
                  cst.RightShift: lambda a, b: a >> b if b >= 0 else None}


def int_constant(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Optional[int]:
    """The Python int ``expr`` always is: an int literal, integer arithmetic of them
    (``2**64``, ``1 << 40``, ``-2**31``), or a name bound once to one (``PRIME = 2654435761``);
    None for anything else (a float, ``/``, a value that may change)."""
    if depth > 4:
        return None
    if isinstance(expr, cst.Integer):
        value = expr.evaluated_value
        return value if isinstance(value, int) else None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        inner = int_constant(model, expr.expression, scope, depth + 1)
        return None if inner is None else -inner if isinstance(expr.operator, cst.Minus) else inner
    if isinstance(expr, cst.BinaryOperation):
        operate = _INT_OPERATORS.get(type(expr.operator))
        left = int_constant(model, expr.left, scope, depth + 1) if operate is not None else None
        right = int_constant(model, expr.right, scope, depth + 1) if left is not None else None
        return operate(left, right) if right is not None else None
    if isinstance(expr, cst.Name):
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "assign" and isinstance(binding.node, cst.Assign) \
                and len(binding.node.targets) == 1 and isinstance(binding.node.targets[0].target, cst.Name) \
                and binding.value is not None:
            return int_constant(model, binding.value, binding.scope, depth + 1)
    return None


def literal_truth(expr: Optional[cst.BaseExpression]) -> Optional[bool]:
    """The truth value of a literal written as ``expr`` (``False``, ``None``, ``0``, ``1.0``,
    ``"x"``); None for anything else, or no expression."""
    if isinstance(expr, cst.Name) and expr.value in ("True", "False", "None"):
        return expr.value == "True"
    if isinstance(expr, (cst.Integer, cst.Float)):
        return bool(expr.evaluated_value)
    if isinstance(expr, cst.SimpleString):
        return bool(expr.evaluated_value)
    return None


def chosen_branch(flow: "ValueFlow", expr: cst.BaseExpression, scope: Scope) -> Optional[cst.BaseExpression]:
    """``a if FLAG else b`` whose test is a literal, or a name bound once to one
    (``USE_JIT = False``): the branch that runs."""
    if not isinstance(expr, cst.IfExp):
        return None
    test = expr.test
    if isinstance(test, cst.Name):
        binding = flow.single(test, scope)
        test = assigned(binding).value if binding is not None and binding.kind == "assign" else test
    truth = literal_truth(test)
    return None if truth is None else expr.body if truth else expr.orelse


def annotated_fields(cls: cst.ClassDef) -> list[cst.AnnAssign]:
    """The annotated names of a class body, in order (``x: jax.Array``, ``n: int = 3``): the
    fields of a dataclass-style class."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return [small for statement in body if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)]


# ---------------------------------------------------------------------------- Python numbers
# What Python type a number is matters to jit: a Python int is a weak int32 argument, a Python
# float a weak float32, so a value that starts as ``1`` and becomes ``0.99`` is two signatures.
PythonNumber = str  # "int" | "float" | "number" (a Python number of either type)
_INT_RESULT_BUILTINS = frozenset({"int", "len", "round"})
_CHOOSING_BUILTINS = frozenset({"max", "min", "abs"})


def python_number(model: SemanticModel, flow: "ValueFlow", expr: cst.BaseExpression, scope: Scope,
                  is_itself: Callable[[cst.BaseExpression], bool] = lambda e: False,
                  passed: Optional[Callable[[Binding], Optional[list]]] = None, depth: int = 0
                  ) -> Optional[PythonNumber]:
    """"int" / "float" when ``expr`` is a Python number of that type (never an array), "number"
    when it is a Python number of either type; None when not known to be a Python number.
    ``is_itself``: the value being updated (``epsilon`` in ``epsilon = max(epsilon * 0.99,
    0.05)``), a Python number of either type; ``passed``: CallingContext.passed_to, for a
    parameter every call fills with a number."""
    if depth > 4:
        return None
    if is_itself(expr):
        return "number"
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return python_number(model, flow, expr.expression, scope, is_itself, passed, depth)
    if isinstance(expr, cst.Integer):
        return "int"
    if isinstance(expr, cst.Float):
        return "float"
    if isinstance(expr, cst.BinaryOperation):
        sides = [python_number(model, flow, side, scope, is_itself, passed, depth + 1) for side in (expr.left, expr.right)]
        if None in sides:
            return None
        if isinstance(expr.operator, cst.Divide) or "float" in sides:
            return "float"
        if isinstance(expr.operator, cst.Power) or "number" in sides:
            return "number"  # ``2 ** -1`` is a float
        return "int"
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and not model.lookup(expr.func.value, scope):
        name = expr.func.value
        if name == "float":
            return "float"
        if name in _INT_RESULT_BUILTINS and len(expr.args) == 1:
            return "int"
        if name in _CHOOSING_BUILTINS and expr.args and not any(a.star or a.keyword for a in expr.args):
            kinds = {python_number(model, flow, a.value, scope, is_itself, passed, depth + 1) for a in expr.args}
            return None if None in kinds else kinds.pop() if len(kinds) == 1 else "number"
        return None
    if isinstance(expr, cst.Attribute):
        value = self_attribute_value(model, expr, scope, any_value=True)
        return python_number(model, flow, value[0], value[1], is_itself, passed, depth + 1) if value is not None else None
    if not isinstance(expr, cst.Name):
        return None
    kinds = set()
    for binding in flow.reaching(expr, scope):
        if binding.kind == "assign" and isinstance(binding.node, cst.Assign) and len(binding.node.targets) == 1 \
                and isinstance(binding.node.targets[0].target, cst.Name) and binding.value is not None:
            kinds.add(python_number(model, flow, binding.value, binding.scope, is_itself, passed, depth + 1))
        elif binding.kind == "param" and passed is not None:
            values = passed(binding)
            if not values:
                return None
            kinds |= {python_number(model, flow, value, site.frame.scope, is_itself, passed, depth + 1)
                      for value, site in values}
        else:
            return None
    if not kinds or None in kinds:
        return None
    return kinds.pop() if len(kinds) == 1 else "number"


def host_random_size(model: SemanticModel, call: cst.Call, qualname: Optional[str],
                     scope: Scope) -> Optional[tuple[int, str]]:
    """Where a NumPy random draw takes its output's size (jaxfacts.HOST_RANDOM_SIZE_PARAMS):
    ``np.random.rand(n, 3)``, or ``rng.normal(0, 1, size=n)`` of a Generator made here
    (``np.random.default_rng(0).normal(size=(1024, 3))`` too): (position, keyword)."""
    if qualname in HOST_RANDOM_SIZE_PARAMS:
        return HOST_RANDOM_SIZE_PARAMS[qualname]  # type: ignore[index]
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in HOST_GENERATOR_SIZE_PARAMS):
        return None
    made = model.value_origin(call.func.value, scope, None)  # type: ignore[arg-type]
    maker = model.qualified_name(made[0].func, made[1]) if made is not None and isinstance(made[0], cst.Call) else None
    return HOST_GENERATOR_SIZE_PARAMS[call.func.attr.value] if maker in HOST_RANDOM_GENERATORS else None


def array_rank(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, frame: Optional[Frame]) -> Optional[int]:
    """The rank of the array ``expr`` makes, directly or through a name bound once to it:
    ``jnp.zeros((3, 4))`` 2, ``jnp.ones(5)`` 1, ``jax.random.normal(key, (5,))`` 1,
    ``np.arange(10)`` 1 (jaxfacts.SHAPE_ARGUMENT_CONSTRUCTORS, ONE_AXIS_CONSTRUCTORS); None when
    not known."""
    origin = model.value_origin(expr, scope, frame) if isinstance(expr, cst.Name) else (expr, scope, frame)
    if origin is None or not isinstance(origin[0], cst.Call):
        return None
    call, call_scope = origin[0], origin[1]
    qualname = model.qualified_name(call.func, call_scope) or ""
    if qualname in ONE_AXIS_CONSTRUCTORS:
        return 1
    position = SHAPE_ARGUMENT_CONSTRUCTORS.get(qualname)
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if position is None or len(positional) <= position:
        return None
    shape = positional[position]
    if isinstance(shape, cst.Integer):
        return 1
    if isinstance(shape, (cst.Tuple, cst.List)) and all(isinstance(e, cst.Element) for e in shape.elements):
        return len(shape.elements)
    return None


def constant_code(expr: cst.BaseExpression, scope: Scope, model: SemanticModel) -> Optional[str]:
    """The literal ``expr`` always is, as code: a number or string written there, or a name
    every assignment of which writes the same one (``lr = 1e-4`` in each pass of the loop that
    then runs ``optimizer = optax.adabelief(lr)``); None for anything else."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)):
        return code_text(expr)
    if not isinstance(expr, cst.Name):
        return None
    bindings = model.lookup(expr.value, scope)
    codes = {code_text(b.value) if b.kind == "assign" and isinstance(b.node, cst.Assign) and len(b.node.targets) == 1
             and isinstance(b.node.targets[0].target, cst.Name)
             and isinstance(b.value, (cst.Integer, cst.Float, cst.SimpleString)) else None for b in bindings}
    return codes.pop() if len(codes) == 1 and None not in codes else None
